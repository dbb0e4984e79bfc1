package org.smartssd.scan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.smartssd.device.Extent;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.sscache.SsCacheConstants;
import org.smartssd.fs.sscache.SsCacheFileSystem;

/**
 * The ranges of {@code smartssd://} files, from each file's extents on its drive: one range
 * per extent, an extent longer than the split size (Hadoop's
 * {@code mapreduce.input.fileinputformat.split.minsize/maxsize} against the file's block
 * size) cut into slices of that size as Hadoop's FileInputFormat cuts a file (a last slice up
 * to 10 % over stays whole), and a last extent shorter than 10 % of the split size joined to
 * the range before it. Every range names the host of the file's drive (its block
 * locations). An inline (packed) object has no extents and is cut like one extent. Range
 * bounds need not fall on record or page bounds: the drive gives each record to the range
 * holding its first byte. An {@code sscache://} file is cut on whole cache blocks. Files on
 * several drives give ranges taken from each drive in turn. A device job's splits and the
 * Spark connector's partitions are these ranges. Cost: one LOOKUP and one EXTENTS command
 * per file (one more per 256 extents).
 */
public final class ExtentSplits {
    public static final String SPLIT_MINSIZE = "mapreduce.input.fileinputformat.split.minsize";
    public static final String SPLIT_MAXSIZE = "mapreduce.input.fileinputformat.split.maxsize";
    private static final double SPLIT_SLOP = 1.1;

    private ExtentSplits() {
    }

    /** Whether {@code p} is an {@code sscache://} file, scanned through the drive's cache. */
    public static boolean isCached(Path p) {
        return SsCacheConstants.SCHEME.equals(p.toUri().getScheme());
    }

    /** Hadoop's split size for a file of {@code blockSize}: the block size within the
     *  configured minimum (at least 1) and maximum. */
    public static long splitSize(Configuration conf, long blockSize) {
        long min = Math.max(1, conf.getLong(SPLIT_MINSIZE, 1L));
        long max = conf.getLong(SPLIT_MAXSIZE, Long.MAX_VALUE);
        return Math.max(min, Math.min(max, blockSize));
    }

    /** The ranges of {@code files} at their extents, each drive's in turn. */
    public static List<ScanRange> of(Configuration conf, List<FileStatus> files)
            throws IOException {
        Map<String, List<ScanRange>> byDrive = new LinkedHashMap<>();
        for (FileStatus f : files) {
            long splitSize = splitSize(conf, f.getBlockSize());
            byDrive.computeIfAbsent(f.getPath().toUri().getAuthority(), d -> new ArrayList<>())
                    .addAll(isCached(f.getPath()) ? cacheSplits(conf, f, splitSize)
                            : fileSplits(conf, f, splitSize));
        }
        return interleave(byDrive.values());
    }

    /**
     * The items of several drives taken in turn, one from each drive: a runner that starts
     * the first N in order (the LocalJobRunner, a Spark stage in partition order) then keeps
     * N drives busy at once rather than N tasks queued on one drive. Hadoop's submitter sorts
     * splits by size stably, so equal splits keep this order.
     */
    public static <T> List<T> interleave(Collection<List<T>> perDrive) {
        List<T> out = new ArrayList<>();
        List<Iterator<T>> its = new ArrayList<>();
        perDrive.forEach(l -> its.add(l.iterator()));
        boolean any = true;
        while (any) {
            any = false;
            for (Iterator<T> it : its) {
                if (it.hasNext()) {
                    out.add(it.next());
                    any = true;
                }
            }
        }
        return out;
    }

    private static List<ScanRange> fileSplits(Configuration conf, FileStatus f, long splitSize)
            throws IOException {
        Path path = f.getPath();
        long len = f.getLen();
        List<ScanRange> out = new ArrayList<>();
        if (len == 0) {
            out.add(new ScanRange(path, 0, 0, new String[0]));
            return out;
        }
        DeviceAccess acc = DeviceAccess.of(path, conf);
        BlockLocation[] locs = acc.fs().getFileBlockLocations(f, 0, len);
        String[] hosts = locs.length == 0 ? new String[0] : locs[0].getHosts();
        long last = 0; // start of the last range
        for (long[] run : runs(acc.device(), acc.stat().oid(), len)) {
            long at = run[0];
            long runEnd = run[1];
            if (runEnd == len && runEnd - at < splitSize / 10 && !out.isEmpty()) {
                out.set(out.size() - 1, new ScanRange(path, last, runEnd - last, hosts));
                continue;
            }
            while ((double) (runEnd - at) / splitSize > SPLIT_SLOP) {
                out.add(new ScanRange(path, at, splitSize, hosts));
                at += splitSize;
            }
            out.add(new ScanRange(path, at, runEnd - at, hosts));
            last = at;
        }
        return out;
    }

    /**
     * Ranges of an {@code sscache://} file: the split size rounded down to whole cache
     * blocks (at least one), so that each range's blocks are its own and the drive, which
     * scans only the range's blocks, never does a record of another range; a last piece
     * under 10 % joins the range before it. Each names the hosts caching its first block.
     */
    private static List<ScanRange> cacheSplits(Configuration conf, FileStatus f,
                                               long splitSize) throws IOException {
        Path path = f.getPath();
        long len = f.getLen();
        SsCacheFileSystem fs = (SsCacheFileSystem) path.getFileSystem(conf);
        long payload = fs.cachedFile(path).payload();
        long size = Math.max(payload, splitSize / payload * payload);
        List<ScanRange> out = new ArrayList<>();
        long at = 0;
        while (at < len || out.isEmpty()) {
            long n = (double) (len - at) / size > SPLIT_SLOP ? size : len - at;
            BlockLocation[] locs = n == 0 ? new BlockLocation[0]
                    : fs.getFileBlockLocations(f, at, n);
            out.add(new ScanRange(path, at, n, locs.length == 0 ? new String[0]
                    : locs[0].getHosts()));
            at += n;
        }
        return out;
    }

    /**
     * The byte runs [start, end) of a file's extents in file order, within [0, len); the
     * whole file as one run when the object has no extents (stored inline).
     */
    private static List<long[]> runs(SmartSsdDevice dev, long oid, long len)
            throws IOException {
        List<long[]> runs = new ArrayList<>();
        long at = 0;
        while (at < len) {
            long before = at;
            for (Extent e : dev.extents(oid, at, len - at)) {
                long t = Math.min(e.offset() + e.sectors() * 512, len);
                if (t > at) {
                    runs.add(new long[] {at, t});
                    at = t;
                }
            }
            if (at == before) {
                break;
            }
        }
        if (at == 0) {
            runs.add(new long[] {0, len});
        } else if (at < len) {
            throw new IOException("extents of object " + oid + " cover " + at + " of its "
                    + len + " bytes");
        }
        return runs;
    }
}
