package org.smartssd.fs.sscache;

import java.io.IOException;
import java.util.function.LongPredicate;

import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.smartssd.device.DriveFullException;
import org.smartssd.device.SolidStateCache;

/**
 * File blocks in the drive's cache: reads that verify every block against the file version
 * ({@link CacheBlock}) and clean fills. Each call is one drive command per
 * {@link #maxBlocksPerCall()} blocks.
 */
final class BlockCacheIo {
    /** The data one READ or WRITE command carries (PROTOCOL.md: 1 MiB per transfer). */
    static final int MAX_TRANSFER = 1 << 20;

    private final SolidStateCache cache;
    private final int blockSize;
    private final int payload;
    private final int maxBlocks;
    private final IOStatisticsStore stats;
    /** Addresses a clean fill must not overwrite: dirty blocks of the write-back manager. */
    private final LongPredicate dirty;

    BlockCacheIo(SolidStateCache cache, IOStatisticsStore stats, LongPredicate dirty) {
        this.cache = cache;
        this.blockSize = cache.blockSize();
        this.payload = CacheBlock.payloadBytes(blockSize);
        this.maxBlocks = Math.max(1, MAX_TRANSFER / blockSize);
        this.stats = stats;
        this.dirty = dirty;
    }

    int blockSize() {
        return blockSize;
    }

    int payload() {
        return payload;
    }

    int maxBlocksPerCall() {
        return maxBlocks;
    }

    SolidStateCache cache() {
        return cache;
    }

    /**
     * Reads blocks [first, first + count) of {@code version} into {@code dst} (block k's
     * payload at {@code k * payload()}). Returns which blocks were hits; misses leave their
     * part of {@code dst} untouched.
     */
    boolean[] read(FileVersion version, byte[] digest, long first, int count, byte[] dst)
            throws IOException {
        boolean[] hit = new boolean[count];
        long base = CacheBlock.Addresses.dataBase(version.pathKey());
        byte[] raw = new byte[Math.min(count, maxBlocks) * blockSize];
        for (int done = 0; done < count; ) {
            int n = Math.min(maxBlocks, count - done);
            long[] present = cache.read(base + first + done, n, raw, 0);
            stats.incrementCounter(CacheStatistics.LOOKUPS);
            for (int k = 0; k < n; k++) {
                long index = first + done + k;
                boolean ok = bit(present, k)
                        && CacheBlock.matches(raw, k * blockSize, blockSize, digest, version, index);
                if (ok) {
                    int len = CacheBlock.payloadLength(raw, k * blockSize);
                    System.arraycopy(raw, k * blockSize + CacheBlock.HEADER_BYTES, dst,
                            (done + k) * payload, len);
                    stats.incrementCounter(CacheStatistics.BYTES_FROM_CACHE, len);
                }
                hit[done + k] = ok;
                stats.incrementCounter(ok ? CacheStatistics.BLOCK_HITS
                        : CacheStatistics.BLOCK_MISSES);
                stats.addMeanStatisticSample(CacheStatistics.HIT_RATIO, ok ? 1 : 0);
            }
            done += n;
        }
        return hit;
    }

    /** Whether block {@code index} of {@code version} is cached; not counted as a lookup. */
    boolean holds(FileVersion version, byte[] digest, long index) throws IOException {
        if (index >= CacheBlock.Addresses.MAX_BLOCKS_PER_FILE) {
            return false;
        }
        byte[] raw = new byte[blockSize];
        long[] present = cache.read(CacheBlock.Addresses.dataBase(version.pathKey()) + index, 1,
                raw, 0);
        return bit(present, 0) && CacheBlock.matches(raw, 0, blockSize, digest, version, index);
    }

    /**
     * Caches blocks [first, first + count) of {@code version}, clean, from {@code src}
     * (block k's payload at {@code k * payload()}); the last block may be partial. Best
     * effort: a cache full of dirty data, or an address held dirty by another file, leaves
     * the block uncached. The dirty check here only saves the write: the drive itself never
     * lets a clean copy replace a dirty block, so a fill that races a write-back's write
     * of the same address cannot lose it.
     */
    void fillClean(FileVersion version, byte[] digest, long first, int count, byte[] src,
                   int srcLength) throws IOException {
        write(version.pathKey(), digest, first, count, src, srcLength, version.length(), false);
    }

    /**
     * Writes blocks as clean or dirty copies. {@code fileLength} goes into the last block's
     * header when it is partial; full blocks carry {@link CacheBlock#ANY_LENGTH}.
     */
    void write(String pathKey, byte[] digest, long first, int count, byte[] src,
               int srcLength, long fileLength, boolean asDirty) throws IOException {
        long base = CacheBlock.Addresses.dataBase(pathKey);
        byte[] raw = new byte[Math.min(count, maxBlocks) * blockSize];
        for (int done = 0; done < count; ) {
            int n = Math.min(maxBlocks, count - done);
            int run = 0;
            for (int k = 0; k < n; k++) {
                long index = first + done + k;
                if (index >= CacheBlock.Addresses.MAX_BLOCKS_PER_FILE
                        || (!asDirty && dirty.test(base + index))) {
                    flushRun(base + first + done + k - run, raw, run, asDirty);
                    run = 0;
                    continue;
                }
                int off = (done + k) * payload;
                int len = Math.min(payload, srcLength - off);
                long lengthField = len == payload ? CacheBlock.ANY_LENGTH : fileLength;
                CacheBlock.encode(raw, run * blockSize, blockSize, digest, index, lengthField,
                        src, off, len);
                run++;
            }
            flushRun(base + first + done + n - run, raw, run, asDirty);
            done += n;
        }
    }

    private void flushRun(long firstAddress, byte[] raw, int run, boolean asDirty)
            throws IOException {
        if (run == 0) {
            return;
        }
        if (asDirty) {
            cache.writeDirty(firstAddress, raw, 0, run);
            stats.incrementCounter(CacheStatistics.BLOCKS_DIRTIED, run);
            return;
        }
        try {
            cache.writeClean(firstAddress, raw, 0, run);
            stats.incrementCounter(CacheStatistics.BLOCKS_FILLED, run);
        } catch (DriveFullException e) {
            // the cache holds only dirty data: the read goes on uncached
            stats.incrementCounter(CacheStatistics.FILLS_REFUSED_FULL);
        }
    }

    static boolean bit(long[] bitmap, int i) {
        return (bitmap[i >>> 6] & (1L << (i & 63))) != 0;
    }
}
