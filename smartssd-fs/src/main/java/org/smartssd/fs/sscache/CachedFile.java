package org.smartssd.fs.sscache;

import java.util.List;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.SolidStateCache;
import org.smartssd.device.SolidStateCache.ScanRange;

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

    /** Blocks one scan may name (SS_SSC_RANGE_MAX). */
    public static final long SCAN_MAX_BLOCKS = 1L << 20;
}
