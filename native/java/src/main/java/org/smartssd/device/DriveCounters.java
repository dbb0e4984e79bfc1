package org.smartssd.device;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The drive's own counters: FTL activity and wear; {@code powerOnNs} is modelled time. From
 * {@code bufferPolicy} on, the drive's DRAM buffer: its policy (the firmware's
 * {@code enum ss_buf_policy}: 0 none, 1 lru, 2 fab, 3 bplru, 4 lbclock, 5 hbm, 6 nv-wb,
 * 7 nv-sub, 8 nv-sat; in the second byte the merge cache's read policy) and size in
 * pages, pages read and written through it and the hits among them, merges (writes to a page
 * still dirty), BPLRU's padding reads, pages flushed to flash and victims evicted, flushes by
 * length in pages, and HBM's threshold and block-region size. From {@code bufferNvBypassPages}
 * on, the non-volatile merge cache's own (0 with another buffer): whole pages a sub-page
 * policy sent past it, pages selective caching took in and selective prefetching read,
 * hits and misses of the controller-side index cache, the FTL flushes it made, and its
 * 512-byte sectors: all, holding data, found in the NVM at power-up.
 */
public record DriveCounters(long hostPageReads, long hostPageWrites, long nandPageReads,
                            long nandPageWrites, long blockErases, long gcPageMoves,
                            long retiredBlocks, long freeBlocks, long minEraseCount,
                            long maxEraseCount, long avgEraseCount,
                            long writeAmplificationMilli, long powerOnNs, long bufferPolicy,
                            long bufferPages, long bufferReadPages, long bufferReadHits,
                            long bufferWritePages, long bufferWriteHits, long bufferMerges,
                            long bufferPaddingReads, long bufferFlushedPages,
                            long bufferEvictions, long bufferFlushes1, long bufferFlushes2,
                            long bufferFlushes34, long bufferFlushes58, long bufferFlushes916,
                            long bufferFlushes1732, long bufferFlushes3364, long bufferFlushes65,
                            long bufferThreshold, long bufferBlockRegionPages,
                            long bufferNvBypassPages, long bufferNvReadCached,
                            long bufferNvPrefetched, long bufferNvIndexHits,
                            long bufferNvIndexMisses, long bufferNvFtlFlushes,
                            long bufferNvSlots, long bufferNvSlotsUsed,
                            long bufferNvRecovered) {
    // COUNTERS' reply, struct ss_wire_counters (SS_REPLY_COUNTERS in ss_proto_replies.h)
    static final int HOST_PAGE_READS = 0;
    static final int HOST_PAGE_WRITES = 8;
    static final int NAND_PAGE_READS = 16;
    static final int NAND_PAGE_WRITES = 24;
    static final int BLOCK_ERASES = 32;
    static final int GC_PAGE_MOVES = 40;
    static final int RETIRED_BLOCKS = 48;
    static final int FREE_BLOCKS = 52;
    static final int MIN_ERASE_COUNT = 56;
    static final int MAX_ERASE_COUNT = 60;
    static final int AVG_ERASE_COUNT = 64;
    static final int WRITE_AMPLIFICATION_MILLI = 68;
    static final int POWER_ON_NS = 72;
    static final int BUFFER_POLICY = 80;
    static final int BUFFER_PAGES = 84;
    static final int BUFFER_READ_PAGES = 88;
    static final int BUFFER_READ_HITS = 96;
    static final int BUFFER_WRITE_PAGES = 104;
    static final int BUFFER_WRITE_HITS = 112;
    static final int BUFFER_MERGES = 120;
    static final int BUFFER_PADDING_READS = 128;
    static final int BUFFER_FLUSHED_PAGES = 136;
    static final int BUFFER_EVICTIONS = 144;
    static final int BUFFER_FLUSHES_1 = 152;
    static final int BUFFER_FLUSHES_2 = 160;
    static final int BUFFER_FLUSHES_3_4 = 168;
    static final int BUFFER_FLUSHES_5_8 = 176;
    static final int BUFFER_FLUSHES_9_16 = 184;
    static final int BUFFER_FLUSHES_17_32 = 192;
    static final int BUFFER_FLUSHES_33_64 = 200;
    static final int BUFFER_FLUSHES_65 = 208;
    static final int BUFFER_THRESHOLD = 216;
    static final int BUFFER_BLOCK_REGION_PAGES = 220;
    static final int BUFFER_NV_BYPASS_PAGES = 224;
    static final int BUFFER_NV_READ_CACHED = 232;
    static final int BUFFER_NV_PREFETCHED = 240;
    static final int BUFFER_NV_INDEX_HITS = 248;
    static final int BUFFER_NV_INDEX_MISSES = 256;
    static final int BUFFER_NV_FTL_FLUSHES = 264;
    static final int BUFFER_NV_SLOTS = 272;
    static final int BUFFER_NV_SLOTS_USED = 276;
    static final int BUFFER_NV_RECOVERED = 280;
    static final int BUFFER_NV_RESERVED = 284;

    static final List<WireField> FIELDS = List.of(
            WireField.u64("host_page_reads", HOST_PAGE_READS),
            WireField.u64("host_page_writes", HOST_PAGE_WRITES),
            WireField.u64("nand_page_reads", NAND_PAGE_READS),
            WireField.u64("nand_page_writes", NAND_PAGE_WRITES),
            WireField.u64("block_erases", BLOCK_ERASES),
            WireField.u64("gc_page_moves", GC_PAGE_MOVES),
            WireField.u32("retired_blocks", RETIRED_BLOCKS),
            WireField.u32("free_blocks", FREE_BLOCKS),
            WireField.u32("min_erase_count", MIN_ERASE_COUNT),
            WireField.u32("max_erase_count", MAX_ERASE_COUNT),
            WireField.u32("avg_erase_count", AVG_ERASE_COUNT),
            WireField.u32("write_amplification_milli", WRITE_AMPLIFICATION_MILLI),
            WireField.u64("power_on_ns", POWER_ON_NS),
            WireField.u32("buffer_policy", BUFFER_POLICY),
            WireField.u32("buffer_pages", BUFFER_PAGES),
            WireField.u64("buffer_read_pages", BUFFER_READ_PAGES),
            WireField.u64("buffer_read_hits", BUFFER_READ_HITS),
            WireField.u64("buffer_write_pages", BUFFER_WRITE_PAGES),
            WireField.u64("buffer_write_hits", BUFFER_WRITE_HITS),
            WireField.u64("buffer_merges", BUFFER_MERGES),
            WireField.u64("buffer_padding_reads", BUFFER_PADDING_READS),
            WireField.u64("buffer_flushed_pages", BUFFER_FLUSHED_PAGES),
            WireField.u64("buffer_evictions", BUFFER_EVICTIONS),
            WireField.u64("buffer_flushes_1", BUFFER_FLUSHES_1),
            WireField.u64("buffer_flushes_2", BUFFER_FLUSHES_2),
            WireField.u64("buffer_flushes_3_4", BUFFER_FLUSHES_3_4),
            WireField.u64("buffer_flushes_5_8", BUFFER_FLUSHES_5_8),
            WireField.u64("buffer_flushes_9_16", BUFFER_FLUSHES_9_16),
            WireField.u64("buffer_flushes_17_32", BUFFER_FLUSHES_17_32),
            WireField.u64("buffer_flushes_33_64", BUFFER_FLUSHES_33_64),
            WireField.u64("buffer_flushes_65", BUFFER_FLUSHES_65),
            WireField.u32("buffer_threshold", BUFFER_THRESHOLD),
            WireField.u32("buffer_block_region_pages", BUFFER_BLOCK_REGION_PAGES),
            WireField.u64("buffer_nv_bypass_pages", BUFFER_NV_BYPASS_PAGES),
            WireField.u64("buffer_nv_read_cached", BUFFER_NV_READ_CACHED),
            WireField.u64("buffer_nv_prefetched", BUFFER_NV_PREFETCHED),
            WireField.u64("buffer_nv_index_hits", BUFFER_NV_INDEX_HITS),
            WireField.u64("buffer_nv_index_misses", BUFFER_NV_INDEX_MISSES),
            WireField.u64("buffer_nv_ftl_flushes", BUFFER_NV_FTL_FLUSHES),
            WireField.u32("buffer_nv_slots", BUFFER_NV_SLOTS),
            WireField.u32("buffer_nv_slots_used", BUFFER_NV_SLOTS_USED),
            WireField.u32("buffer_nv_recovered", BUFFER_NV_RECOVERED),
            WireField.rsv32("buffer_nv_reserved", BUFFER_NV_RESERVED));

    /** Share of the pages read through the buffer that it held, 0 when none were read. */
    public double bufferReadHitRatio() {
        return bufferReadPages == 0 ? 0 : (double) bufferReadHits / bufferReadPages;
    }

    /** Share of the pages written through the buffer that it held already. */
    public double bufferWriteHitRatio() {
        return bufferWritePages == 0 ? 0 : (double) bufferWriteHits / bufferWritePages;
    }

    /** Whether the buffer is the non-volatile merge cache (nv-wb, nv-sub, nv-sat). */
    public boolean bufferIsMergeCache() {
        long p = bufferPolicy & 0xff;
        return p >= 6 && p <= 8;
    }

    /** Share of the index-cache lookups that hit, 0 when there were none. */
    public double bufferNvIndexHitRatio() {
        long n = bufferNvIndexHits + bufferNvIndexMisses;
        return n == 0 ? 0 : (double) bufferNvIndexHits / n;
    }

    /** Decodes the reply's wire bytes at b's start. */
    static DriveCounters decode(ByteBuffer b) {
        ByteBuffer le = WireField.littleEndian(b);
        return new DriveCounters(le.getLong(HOST_PAGE_READS), le.getLong(HOST_PAGE_WRITES),
                le.getLong(NAND_PAGE_READS), le.getLong(NAND_PAGE_WRITES),
                le.getLong(BLOCK_ERASES), le.getLong(GC_PAGE_MOVES),
                WireField.u32(le, RETIRED_BLOCKS), WireField.u32(le, FREE_BLOCKS),
                WireField.u32(le, MIN_ERASE_COUNT), WireField.u32(le, MAX_ERASE_COUNT),
                WireField.u32(le, AVG_ERASE_COUNT), WireField.u32(le, WRITE_AMPLIFICATION_MILLI),
                le.getLong(POWER_ON_NS),
                WireField.u32(le, BUFFER_POLICY), WireField.u32(le, BUFFER_PAGES),
                le.getLong(BUFFER_READ_PAGES), le.getLong(BUFFER_READ_HITS),
                le.getLong(BUFFER_WRITE_PAGES), le.getLong(BUFFER_WRITE_HITS),
                le.getLong(BUFFER_MERGES), le.getLong(BUFFER_PADDING_READS),
                le.getLong(BUFFER_FLUSHED_PAGES), le.getLong(BUFFER_EVICTIONS),
                le.getLong(BUFFER_FLUSHES_1), le.getLong(BUFFER_FLUSHES_2),
                le.getLong(BUFFER_FLUSHES_3_4), le.getLong(BUFFER_FLUSHES_5_8),
                le.getLong(BUFFER_FLUSHES_9_16), le.getLong(BUFFER_FLUSHES_17_32),
                le.getLong(BUFFER_FLUSHES_33_64), le.getLong(BUFFER_FLUSHES_65),
                WireField.u32(le, BUFFER_THRESHOLD), WireField.u32(le,
                BUFFER_BLOCK_REGION_PAGES),
                le.getLong(BUFFER_NV_BYPASS_PAGES), le.getLong(BUFFER_NV_READ_CACHED),
                le.getLong(BUFFER_NV_PREFETCHED), le.getLong(BUFFER_NV_INDEX_HITS),
                le.getLong(BUFFER_NV_INDEX_MISSES), le.getLong(BUFFER_NV_FTL_FLUSHES),
                WireField.u32(le, BUFFER_NV_SLOTS), WireField.u32(le, BUFFER_NV_SLOTS_USED),
                WireField.u32(le, BUFFER_NV_RECOVERED));
    }
}
