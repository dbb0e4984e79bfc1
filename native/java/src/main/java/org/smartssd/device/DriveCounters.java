package org.smartssd.device;

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
 *
 * <p>The components are the fields of SS_REPLY_COUNTERS in
 * {@code protocol/include/ss_proto_replies.h}, in its order ({@link WireDecoder}).
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

}
