package org.smartssd.fs.sscache;

import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;

/** The IOStatistics names of {@code sscache://}, and the store that holds them. */
public final class CacheStatistics {
    /** Drive READ commands of readers: one per window of up to 1 MiB looked up. */
    public static final String LOOKUPS = "sscache_lookups";
    /** Cache blocks found in the drive and valid for the version read. */
    public static final String BLOCK_HITS = "sscache_block_hits";
    /** Cache blocks absent, or present for another version or path. */
    public static final String BLOCK_MISSES = "sscache_block_misses";
    /** The hit ratio: the mean of one sample per block looked up, 1 for a hit. */
    public static final String HIT_RATIO = "sscache_hit_ratio";
    /** File bytes served from the drive's cache. */
    public static final String BYTES_FROM_CACHE = "sscache_bytes_from_cache";
    /** File bytes read from the backing store. */
    public static final String BYTES_FROM_BACKING = "sscache_bytes_from_backing";
    /** Cache blocks written clean (filled on a miss, or by a write-through writer). */
    public static final String BLOCKS_FILLED = "sscache_blocks_filled";
    /** Cache blocks written dirty (write-back writers). */
    public static final String BLOCKS_DIRTIED = "sscache_blocks_dirtied";
    /** Files written back to the backing store. */
    public static final String WRITE_BACKS = "sscache_write_backs";
    /** Dirty blocks written back. */
    public static final String WRITE_BACK_BLOCKS = "sscache_write_back_blocks";
    /** Backing writes the write-backs took: adjacent dirty blocks go in one. */
    public static final String WRITE_BACK_RUNS = "sscache_write_back_runs";
    /** Write-backs that failed and were left dirty for a retry. */
    public static final String WRITE_BACK_FAILURES = "sscache_write_back_failures";
    /** Writes that found the cache full of dirty data and waited for the cleaner. */
    public static final String FULL_WAITS = "sscache_full_waits";
    /** Fills of missed blocks the drive failed: blocks left uncached ({@link FillQueue}). */
    public static final String FILLS_FAILED = "sscache_fills_failed";
    /** Fills dropped because the fill queue stayed full for its wait. */
    public static final String FILLS_DROPPED = "sscache_fills_dropped";
    /**
     * Fills the drive refused because its cache held dirty data only (DRIVE_FULL): those
     * blocks stay uncached, the read goes on from the backing store.
     */
    public static final String FILLS_REFUSED_FULL = "sscache_fills_refused_full";

    private CacheStatistics() {
    }

    static IOStatisticsStore newStore(String... more) {
        String[] counters = {LOOKUPS, BLOCK_HITS, BLOCK_MISSES, BYTES_FROM_CACHE, BYTES_FROM_BACKING,
            BLOCKS_FILLED, BLOCKS_DIRTIED, WRITE_BACKS, WRITE_BACK_BLOCKS, WRITE_BACK_RUNS,
            WRITE_BACK_FAILURES, FULL_WAITS, FILLS_FAILED, FILLS_DROPPED, FILLS_REFUSED_FULL};
        String[] all = new String[counters.length + more.length];
        System.arraycopy(counters, 0, all, 0, counters.length);
        System.arraycopy(more, 0, all, counters.length, more.length);
        return IOStatisticsBinding.iostatisticsStore().withCounters(all)
                .withMeanStatistics(HIT_RATIO).build();
    }
}
