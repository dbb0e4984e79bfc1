package org.smartssd.mapreduce;

/**
 * Counters of device-job splits of {@code sscache://} files ({@link CachedScanRunner}),
 * group {@code org.smartssd.mapreduce.CacheScanCounters}: how much of each split the drive
 * did over its cached blocks and how much the host did with the rest.
 */
public enum CacheScanCounters {
    /** Splits scanned through the cache. */
    CACHED_SPLITS,
    /** Records the tasklet did in the drive, over cached blocks, and their bytes. */
    RECORDS_IN_DRIVE,
    BYTES_IN_DRIVE,
    /** Cache blocks the drive read for them. */
    BLOCKS_READ_IN_DRIVE,
    /** Records the host mapper did (touching a block not cached, or straddling the edge of
     *  a run of cached blocks), and their bytes. */
    RECORDS_ON_HOST,
    BYTES_ON_HOST,
    /** Scans the drive stopped at a block of another version of the file: the host did the
     *  whole split. */
    STALE_SCANS
}
