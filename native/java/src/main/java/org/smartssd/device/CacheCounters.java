package org.smartssd.device;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The solid-state cache's shape and counters, as the drive reports them (SSC_INFO). Hits
 * and misses count blocks read; silent evictions are clean blocks (and the erase blocks
 * holding them) that garbage collection dropped instead of copying; dirty and cached blocks
 * are counts now; write amplification is NAND page writes per host page write, in
 * thousandths. Hits, misses, evictions, page writes and erases count since the drive was
 * powered on (mounted); dirty and cached blocks are the cache's state. Bad blocks are erase
 * blocks of the cache's part left out because their erase failed at format (factory bad);
 * the capacity counts good ones only. A drive formatted without a cache reports a block
 * size of 0.
 *
 * <p>The cache manager's traffic counts since format and survives restarts (the drive keeps
 * it in the cache's checkpoints; a crash loses the hits and clean operations since the last
 * one): bytes read as hits, bytes written by write-clean (filled from the backing store)
 * and by write-dirty, clean operations (SSC_CLEAN commands: write-backs completed) and the
 * bytes they turned clean, blocks evicted. Retired blocks are the cache's erase blocks worn
 * out in use (at {@code endurance} erases, or a failed erase): never used again, and left
 * out of the capacity.
 */
public record CacheCounters(long blockSize, long sharePermille, long capacityBlocks, long policy, long logPermille,
                            long readHits, long readMisses, long silentEvictedPages,
                            long silentEvictedBlocks, long dirtyBlocks, long
                            cachedBlocks, long hostPageWrites, long nandPageWrites, long
                            blockErases, long writeAmplificationMilli, long badBlocks,
                            long mapDramBytes, long hitBytes, long filledBytes,
                            long dirtyWrittenBytes, long cleanOps, long cleanedBytes,
                            long evictedBlocks, long retiredBlocks, long endurance) {
    // SSC_INFO's reply, struct ss_wire_ssc_info (SS_REPLY_SSC_INFO in ss_proto_replies.h)
    static final int BLOCK_SIZE = 0;
    static final int SHARE_PERMILLE = 4;
    static final int CAPACITY_BLOCKS = 8;
    static final int POLICY = 16;
    static final int LOG_PERMILLE = 20;
    static final int READ_HITS = 24;
    static final int READ_MISSES = 32;
    static final int SILENT_EVICTED_PAGES = 40;
    static final int SILENT_EVICTED_BLOCKS = 48;
    static final int DIRTY_BLOCKS = 56;
    static final int CACHED_BLOCKS = 64;
    static final int HOST_PAGE_WRITES = 72;
    static final int NAND_PAGE_WRITES = 80;
    static final int BLOCK_ERASES = 88;
    static final int WRITE_AMPLIFICATION_MILLI = 96;
    static final int BAD_BLOCKS = 100;
    static final int MAP_DRAM_BYTES = 104;
    static final int HIT_BYTES = 112;
    static final int FILLED_BYTES = 120;
    static final int DIRTY_WRITTEN_BYTES = 128;
    static final int CLEAN_OPS = 136;
    static final int CLEANED_BYTES = 144;
    static final int EVICTED_BLOCKS = 152;
    static final int RETIRED_BLOCKS = 160;
    static final int ENDURANCE = 164;

    static final List<WireField> FIELDS = List.of(
            WireField.u32("block_size", BLOCK_SIZE),
            WireField.u32("share_permille", SHARE_PERMILLE),
            WireField.u64("capacity_blocks", CAPACITY_BLOCKS),
            WireField.u32("policy", POLICY),
            WireField.u32("log_permille", LOG_PERMILLE),
            WireField.u64("read_hits", READ_HITS),
            WireField.u64("read_misses", READ_MISSES),
            WireField.u64("silent_evicted_pages", SILENT_EVICTED_PAGES),
            WireField.u64("silent_evicted_blocks", SILENT_EVICTED_BLOCKS),
            WireField.u64("dirty_blocks", DIRTY_BLOCKS),
            WireField.u64("cached_blocks", CACHED_BLOCKS),
            WireField.u64("host_page_writes", HOST_PAGE_WRITES),
            WireField.u64("nand_page_writes", NAND_PAGE_WRITES),
            WireField.u64("block_erases", BLOCK_ERASES),
            WireField.u32("write_amplification_milli", WRITE_AMPLIFICATION_MILLI),
            WireField.u32("bad_blocks", BAD_BLOCKS),
            WireField.u64("map_dram_bytes", MAP_DRAM_BYTES),
            WireField.u64("hit_bytes", HIT_BYTES),
            WireField.u64("filled_bytes", FILLED_BYTES),
            WireField.u64("dirty_written_bytes", DIRTY_WRITTEN_BYTES),
            WireField.u64("clean_ops", CLEAN_OPS),
            WireField.u64("cleaned_bytes", CLEANED_BYTES),
            WireField.u64("evicted_blocks", EVICTED_BLOCKS),
            WireField.u32("retired_blocks", RETIRED_BLOCKS),
            WireField.u32("endurance", ENDURANCE));

    /** Decodes the reply's wire bytes at b's start. */
    static CacheCounters decode(ByteBuffer b) {
        ByteBuffer le = WireField.littleEndian(b);
        return new CacheCounters(
                WireField.u32(le, BLOCK_SIZE), WireField.u32(le, SHARE_PERMILLE),
                le.getLong(CAPACITY_BLOCKS), WireField.u32(le, POLICY),
                WireField.u32(le, LOG_PERMILLE), le.getLong(READ_HITS),
                le.getLong(READ_MISSES), le.getLong(SILENT_EVICTED_PAGES),
                le.getLong(SILENT_EVICTED_BLOCKS), le.getLong(DIRTY_BLOCKS),
                le.getLong(CACHED_BLOCKS), le.getLong(HOST_PAGE_WRITES),
                le.getLong(NAND_PAGE_WRITES), le.getLong(BLOCK_ERASES),
                WireField.u32(le, WRITE_AMPLIFICATION_MILLI), WireField.u32(le, BAD_BLOCKS),
                le.getLong(MAP_DRAM_BYTES), le.getLong(HIT_BYTES), le.getLong(FILLED_BYTES),
                le.getLong(DIRTY_WRITTEN_BYTES), le.getLong(CLEAN_OPS),
                le.getLong(CLEANED_BYTES), le.getLong(EVICTED_BLOCKS),
                WireField.u32(le, RETIRED_BLOCKS), WireField.u32(le, ENDURANCE));
    }

    /** Blocks read that were in the cache. */
    public long hits() {
        return readHits;
    }

    /** Blocks read that were not. */
    public long misses() {
        return readMisses;
    }

    /** Hits over all blocks read; 0 before any read. */
    public double hitRatio() {
        long all = readHits + readMisses;
        return all == 0 ? 0 : (double) readHits / all;
    }

    /** NAND page writes per host page write. */
    public double writeAmplification() {
        return writeAmplificationMilli / 1000.0;
    }
}
