package org.smartssd.spark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.smartssd.fs.SmartSsdFileSystem;
import org.smartssd.mapreduce.DeviceInputFormat;

/**
 * A table's file on its drive: its length, checked against the record size, and its
 * partitions, which follow the file's extents as {@link DeviceInputFormat}'s splits do (one
 * per extent, long extents cut at the block size), each naming the drive's host.
 */
final class DriveFile {
    private final String path;
    private final long length;
    private final String drive;
    private final List<SmartSsdPartition> partitions;

    private DriveFile(String path, long length, String drive, List<SmartSsdPartition> parts) {
        this.path = path;
        this.length = length;
        this.drive = drive;
        this.partitions = List.copyOf(parts);
    }

    static DriveFile open(String path, TableLayout layout, ReadOptions options, DriveConf conf)
            throws IOException {
        Configuration c = conf.hadoop();
        Path p = new Path(path);
        FileSystem fs = p.getFileSystem(c);
        if (!(fs instanceof SmartSsdFileSystem sfs)) {
            throw new IOException(path + " is not on a Smart SSD: the smartssd source reads "
                    + "smartssd://NAME/... files");
        }
        FileStatus st = fs.getFileStatus(p);
        if (st.isDirectory()) {
            throw new IOException(path + " is a directory, not a file of records");
        }
        long len = st.getLen();
        int rs = layout.recordSize();
        if (len % rs != 0 && !options.skipPartialRecord()) {
            throw new IOException("file " + path + " is " + len + " bytes, not a multiple of "
                    + "the record size " + rs + " (" + (len / rs) + " whole records and "
                    + (len % rs) + " bytes over); option partialRecord=skip reads the whole "
                    + "records");
        }
        Job job = Job.getInstance(c);
        FileInputFormat.setInputPaths(job, p);
        List<SmartSsdPartition> parts = new ArrayList<>();
        for (InputSplit s : new DeviceInputFormat().getSplits(job)) {
            FileSplit f = (FileSplit) s;
            parts.add(new SmartSsdPartition(parts.size(), f.getStart(), f.getLength(),
                    f.getLocations()));
        }
        return new DriveFile(path, len, sfs.getUri().getAuthority(), parts);
    }

    String path() {
        return path;
    }

    long length() {
        return length;
    }

    /** The drive's name (the URI's authority). */
    String drive() {
        return drive;
    }

    List<SmartSsdPartition> partitions() {
        return partitions;
    }

    /** Most records whose first byte lies in one partition. */
    long maxRecordsPerPartition(int recordSize) {
        long max = 0;
        for (SmartSsdPartition p : partitions) {
            max = Math.max(max, p.length() / recordSize + 1);
        }
        return max;
    }
}
