package org.smartssd.fs.sscache;

import java.io.IOException;
import java.util.List;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.SolidStateCache;
import org.smartssd.device.SolidStateCache.ScanRange;
import org.smartssd.device.SolidStateCache.ScanRun;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletSpec;

/**
 * What a scan in the drive needs to read one file through the cache
 * ({@link SolidStateCache#scan} with block headers): the drive, the version the backing
 * store has now (its digest is what every block used must carry), and where the file's
 * blocks are cached. From {@link SsCacheFileSystem#cachedFile}.
 *
 * @param payload file bytes per cache block (the block size less its header)
 */
public record CachedFile(SmartSsdDevice device, SolidStateCache cache, FileVersion version,
                         byte[] digest, long addressBase, int payload) {

    /**
     * The one range naming the cache blocks that hold file bytes [start, end): blocks past
     * the last a file may have cached ({@link CacheBlock.Addresses#MAX_BLOCKS_PER_FILE}) or
     * past what one scan may name are left out (their records are the host's); empty when
     * none is left.
     */
    public List<ScanRange> ranges(long start, long end) {
        long first = start / payload;
        long last = Math.min((Math.min(end, version.length()) + payload - 1) / payload,
                CacheBlock.Addresses.MAX_BLOCKS_PER_FILE);
        last = Math.min(last, first + SCAN_MAX_BLOCKS);
        return last <= first ? List.of()
                : List.of(new ScanRange(addressBase + first, last - first, first));
    }

    /** What one scan in the drive did: the runs of records it covered, and (when it covered
     *  any) the tasklet's output and last progress. */
    public record DriveScan(List<ScanRun> runs, byte[] output, TaskletProgress progress) {
        static final DriveScan NONE = new DriveScan(List.of(), null, null);
    }

    /**
     * Runs {@code spec} (a FIXED layout) in the drive over the records of file bytes
     * [start, end) lying wholly inside runs of cached blocks (one SSC_SCAN), its output
     * in the scratch object {@code outPath}, which is removed after. The records outside
     * the returned runs are the caller's ({@link ScanRun#uncovered}).
     *
     * @throws org.smartssd.device.SmartSsdException of reason {@code STALE_BLOCK}: a block
     *     read is of another version of the file: the scan counts for nothing
     */
    public DriveScan scan(TaskletSpec spec, String outPath, long start, long end)
            throws IOException {
        List<ScanRange> ranges = ranges(start, end);
        if (ranges.isEmpty()) {
            return DriveScan.NONE;
        }
        long out = device.createOutput(outPath, SmartSsdDevice.CreateOption.EXCLUSIVE,
                SmartSsdDevice.CreateOption.PARENTS);
        long instance = -1;
        try {
            instance = device.createTasklet(spec, out);
            List<ScanRun> runs = cache.scan(instance, version.length(), digest, ranges);
            if (runs.isEmpty()) {
                return DriveScan.NONE;
            }
            TaskletProgress p = device.poll(instance);
            return new DriveScan(runs, device.readAllOutput(instance), p);
        } finally {
            if (instance >= 0) {
                device.destroy(instance);
            }
            device.remove(outPath, false);
        }
    }

    /** Blocks one scan may name (SS_SSC_RANGE_MAX). */
    public static final long SCAN_MAX_BLOCKS = 1L << 20;
}
