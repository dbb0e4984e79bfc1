package org.smartssd.fs.impl;

import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;

/**
 * Block locations of a file on the drive. The whole file lies on one drive, held by one
 * host, so every location names that host; the file is cut into block-size slices so that
 * splits of a large file can be scheduled separately. Cost: no drive command.
 */
public final class BlockLocations {
    /** The port in location names, as FileSystem's own default uses (DataNode transfer). */
    static final int NAME_PORT = 9866;

    private BlockLocations() {
    }

    /**
     * Locations of the bytes [start, start + len) of a file, as FileSystem's contract
     * wants: empty when {@code start} is at or past the end, one per slice touched
     * otherwise.
     */
    public static BlockLocation[] of(StoreContext ctx, FileStatus file, long start, long len) {
        if (start < 0 || len < 0) {
            throw new IllegalArgumentException("invalid start or length: " + start + ", " + len);
        }
        if (file.isDirectory() || file.getLen() <= start) {
            return new BlockLocation[0];
        }
        long block = ctx.blockSize();
        long end = Math.min(file.getLen(), start + len);
        String[] hosts = {ctx.host()};
        String[] names = {ctx.host() + ":" + NAME_PORT};
        List<BlockLocation> out = new ArrayList<>();
        long first = (start / block) * block;
        do {
            long sliceLen = Math.min(block, file.getLen() - first);
            out.add(new BlockLocation(names, hosts, first, sliceLen));
            first += block;
        } while (first < end);
        return out.toArray(new BlockLocation[0]);
    }
}
