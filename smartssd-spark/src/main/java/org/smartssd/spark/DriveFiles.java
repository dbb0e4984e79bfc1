package org.smartssd.spark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.smartssd.fs.SmartSsdFileSystem;
import org.smartssd.fs.sscache.SsCacheFileSystem;
import org.smartssd.scan.ExtentSplits;
import org.smartssd.scan.ScanRange;

/**
 * A table's files, on one drive or several: each file's length, checked against the record
 * size, and the partitions, which are the files' {@link ExtentSplits} (one per extent,
 * long extents cut at the block size, each naming its drive's host; files on several drives
 * taken from each drive in turn, so a stage's first tasks keep every drive busy). An
 * {@code sscache://} file's partitions start on whole cache blocks, as a device job's splits.
 */
final class DriveFiles {
    private final Map<String, Long> lengths;
    private final List<String> drives;
    private final List<SmartSsdPartition> partitions;

    private DriveFiles(Map<String, Long> lengths, List<String> drives,
                       List<SmartSsdPartition> parts) {
        this.lengths = lengths;
        this.drives = List.copyOf(drives);
        this.partitions = List.copyOf(parts);
    }

    static DriveFiles open(List<String> paths, TableLayout layout, ReadOptions options,
                           DriveConf conf) throws IOException {
        Configuration c = conf.hadoop();
        Map<String, Long> lengths = new LinkedHashMap<>();
        TreeSet<String> drives = new TreeSet<>();
        List<FileStatus> statuses = new ArrayList<>();
        for (String path : paths) {
            Path p = new Path(path);
            FileSystem fs = p.getFileSystem(c);
            boolean cached = fs instanceof SsCacheFileSystem;
            if (!(fs instanceof SmartSsdFileSystem) && !cached) {
                throw new IOException(path + " is not on a Smart SSD: the smartssd source reads "
                        + "smartssd://NAME/... files, or sscache://NAME/... files through the "
                        + "drive's cache");
            }
            if (cached && layout.isText()) {
                throw new IOException(path + ": a scan through the drive's cache (sscache://) "
                        + "needs fixed-width records (the drive scans cached blocks only for "
                        + "FIXED layouts); delimited text (option sep) is not supported there");
            }
            FileStatus st = fs.getFileStatus(p);
            if (st.isDirectory()) {
                throw new IOException(path + " is a directory, not a file of records");
            }
            long len = st.getLen();
            int rs = layout.recordSize();
            if (!layout.isText() && len % rs != 0 && !options.skipPartialRecord()) {
                throw new IOException("file " + path + " is " + len + " bytes, not a multiple of "
                        + "the record size " + rs + " (" + (len / rs) + " whole records and "
                        + (len % rs) + " bytes over); option partialRecord=skip reads the whole "
                        + "records");
            }
            Path q = st.getPath();
            if (lengths.put(q.toString(), len) != null) {
                throw new IOException(path + " is given twice");
            }
            statuses.add(st);
            drives.add(fs.getUri().getAuthority());
        }
        // the scan places its partitions itself (PartitionPlacement)
        List<SmartSsdPartition> parts = new ArrayList<>();
        for (ScanRange r : ExtentSplits.of(c, statuses)) {
            String file = r.path().toString();
            parts.add(new SmartSsdPartition(parts.size(), file, lengths.get(file), r.start(),
                    r.length(), r.hosts()));
        }
        return new DriveFiles(lengths, new ArrayList<>(drives), parts);
    }

    /** The files, as given (qualified), comma-separated. */
    String paths() {
        return String.join(", ", lengths.keySet());
    }

    /** The drives' names (the URIs' authorities), comma-separated. */
    String drives() {
        return String.join(", ", drives);
    }

    List<SmartSsdPartition> partitions() {
        return partitions;
    }

    /** Most records whose first byte lies in one partition (a text line is 1 byte or more). */
    long maxRecordsPerPartition(TableLayout layout) {
        int smallest = layout.isText() ? 1 : layout.recordSize();
        long max = 0;
        for (SmartSsdPartition p : partitions) {
            max = Math.max(max, p.length() / smallest + 1);
        }
        return max;
    }
}
