package org.smartssd.device;

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
 *
 * <p>The components are the fields of SS_REPLY_SSC_INFO in
 * {@code protocol/include/ss_proto_replies.h}, in its order ({@link WireDecoder}).
 */
public record CacheCounters(long blockSize, long sharePermille, long capacityBlocks, long policy, long logPermille,
                            long readHits, long readMisses, long silentEvictedPages,
                            long silentEvictedBlocks, long dirtyBlocks, long
                            cachedBlocks, long hostPageWrites, long nandPageWrites, long
                            blockErases, long writeAmplificationMilli, long badBlocks,
                            long mapDramBytes, long hitBytes, long filledBytes,
                            long dirtyWrittenBytes, long cleanOps, long cleanedBytes,
                            long evictedBlocks, long retiredBlocks, long endurance) {
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
