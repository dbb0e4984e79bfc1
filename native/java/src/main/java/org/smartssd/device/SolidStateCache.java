package org.smartssd.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The drive's solid-state cache (FlashTier's SSC): blocks of a slower backing store,
 * addressed by the backing store's own 64-bit block numbers, in the drive beside the object
 * store. Every block of a range keeps its guarantee:
 * <ul>
 *   <li>{@link #writeDirty}: durable on return;</li>
 *   <li>{@link #writeClean}: may be lost in a crash, never leaves older data readable;</li>
 *   <li>{@link #read}: the data, or "not present" in the returned bitmap (never an error);</li>
 *   <li>{@link #evict}: durable on return;</li>
 *   <li>{@link #clean}: may revert to dirty after a crash;</li>
 *   <li>{@link #exists}: present-and-dirty bits, from the drive's memory only.</li>
 * </ul>
 * Ranges of any length are split into commands the protocol allows. A failure stops the
 * range; the blocks before it keep their guarantee. Bitmaps are {@code long[]} with bit
 * {@code i % 64} of word {@code i / 64} for block {@code firstBlock + i}, as
 * {@link java.util.BitSet#valueOf(long[])} reads them. Block numbers are unsigned; the last,
 * all ones, is not a cache block. Thread-safe, as the device is.
 */
public final class SolidStateCache {
    private static final int OP_EVICT = 0;
    private static final int OP_CLEAN = 1;
    private static final int OP_EXISTS = 2;
    /** The drive's URI, as its device was opened. */
    public String drive() {
        return s.uri;
    }

    /** Blocks one exists call may ask for: its bitmap fills the scratch buffer. */
    private static final int EXISTS_CHUNK = DeviceSession.SCRATCH_SIZE * 8;

    private final DeviceSession s;
    private final int blockSize;
    private final long capacityBlocks;

    private SolidStateCache(DeviceSession s, CacheCounters c) {
        this.s = s;
        this.blockSize = (int) c.blockSize();
        this.capacityBlocks = c.capacityBlocks();
    }

    /** The drive's cache; a {@link SmartSsdException} (ENOSYS) when it has none. */
    static SolidStateCache of(DeviceSession s) throws IOException {
        CacheCounters c = counters(s);
        if (c.blockSize() == 0) {
            throw new SmartSsdException(s.uri + ": the drive has no "
                    + "solid-state cache (formatted with a cache share of 0; smartssd format "
                    + "--cache-share PCT gives it one)", Errno.ENOSYS, 0);
        }
        if (c.blockSize() > DeviceSession.STAGING_SIZE) {
            throw new SmartSsdException(s.uri + ": cache blocks of "
                    + c.blockSize() + " bytes exceed the " + DeviceSession.STAGING_SIZE
                    + "-byte staging buffers", Errno.ENOTSUP, 0);
        }
        return new SolidStateCache(s, c);
    }

    static CacheCounters counters(DeviceSession s) throws IOException {
        return s.withScratch((h, out) -> {
            s.check(SmartSsdNative.cacheInfo0(h, out), "cache info");
            return Replies.SSC_INFO.decode(out);
        });
    }

    /** Bytes in one cache block (one flash page). */
    public int blockSize() {
        return blockSize;
    }

    /** Flash pages the cache has for data and its log: at most this many blocks fit. */
    public long capacityBlocks() {
        return capacityBlocks;
    }

    /** Caches {@code count} blocks from {@code src[off...]} as dirty: durable on return.
     *  @throws DriveFullException when the cache is full of dirty data (nothing dropped) */
    public void writeDirty(long firstBlock, byte[] src, int off, int count) throws IOException {
        write(true, firstBlock, src, off, count);
    }

    /** Caches {@code count} blocks as clean copies of the backing store's.
     *  @throws DriveFullException when the cache is full of dirty data */
    public void writeClean(long firstBlock, byte[] src, int off, int count) throws IOException {
        write(false, firstBlock, src, off, count);
    }

    /**
     * Reads {@code count} blocks into {@code dst[off...]}; a block not present is left as
     * zeros there. A miss is not an error.
     *
     * @return the bitmap of the blocks present
     */
    public long[] read(long firstBlock, int count, byte[] dst, int off) throws IOException {
        checkRange(firstBlock, count);
        Objects.checkFromIndexSize(off, Math.multiplyExact(count, blockSize), dst.length);
        long[] present = new long[words(count)];
        staged(firstBlock, count, (st, first, at, n) -> {
            int bytes = n * blockSize;
            s.withScratch((h, out) -> {
                s.check(SmartSsdNative.cacheRead0(h, first, n, st, 0, bytes, out),
                        "cache read", blocks(first, n));
                st.get(0, dst, off + at * blockSize, bytes);
                s.bytesFromDrive.addAndGet((long) mergeBits(present, at, out, n) * blockSize);
                return null;
            });
        });
        return present;
    }

    /** Drops the blocks from the cache: durable on return (also for blocks not present). */
    public void evict(long firstBlock, int count) throws IOException {
        range(OP_EVICT, "cache evict", firstBlock, count);
    }

    /** Marks the blocks clean: the backing store has their data. May revert to dirty after
     *  a crash. */
    public void clean(long firstBlock, int count) throws IOException {
        range(OP_CLEAN, "cache clean", firstBlock, count);
    }

    /** The bitmap of the blocks present and dirty, from the drive's memory only. */
    public long[] exists(long firstBlock, int count) throws IOException {
        checkRange(firstBlock, count);
        long[] dirty = new long[words(count)];
        for (int done = 0; done < count; ) {
            int n = Math.min(EXISTS_CHUNK, count - done);
            long first = firstBlock + done;
            int at = done;
            s.withScratch((h, out) -> {
                s.check(SmartSsdNative.cacheRange0(h, OP_EXISTS, first, n, out),
                        "cache exists", blocks(first, n));
                mergeBits(dirty, at, out, n);
                return null;
            });
            done += n;
        }
        return dirty;
    }

    /** Blocks {@code count} cache blocks from {@code firstBlock} hold the file's blocks from
     *  {@code fileBlock} on. */
    public record ScanRange(long firstBlock, long blocks, long fileBlock) {
        public ScanRange {
            if (blocks <= 0 || fileBlock < 0) {
                throw new IllegalArgumentException("scan range of " + blocks
                        + " blocks from file block " + fileBlock);
            }
        }
    }

    /** What a scan did in the drive: it read file blocks [fileBlock, fileBlock + blocks)
     *  and ran the tasklet over records [firstRecord, firstRecord + records). */
    public record ScanRun(long fileBlock, long blocks, long firstRecord, long records) {
        /**
         * The records of [{@code first}, {@code end}) that {@code runs} (one scan's, in order)
         * did not cover, as [a, b) intervals in order: the host's share of a scan.
         *
         * @throws IOException when a run lies outside [first, end) or out of order (the
         *         drive did records that are not the caller's)
         */
        public static java.util.List<long[]> uncovered(java.util.List<ScanRun> runs,
                                                       long first, long end) throws IOException {
            java.util.List<long[]> left = new java.util.ArrayList<>();
            long next = first;
            for (ScanRun r : runs) {
                if (r.firstRecord() < next || r.firstRecord() + r.records() > end) {
                    throw new IOException("the drive did records " + r.firstRecord() + "+"
                            + r.records() + ", outside records " + first + ".." + end
                            + " or out of order");
                }
                if (r.firstRecord() > next) {
                    left.add(new long[] {next, r.firstRecord()});
                }
                next = r.firstRecord() + r.records();
            }
            if (next < end) {
                left.add(new long[] {next, end});
            }
            return left;
        }
    }

    /** Ranges one {@link #scan} takes (SS_SSC_SCAN_MAX_RANGES). */
    public static final int SCAN_MAX_RANGES = 1024;
    /** Runs of present blocks one scan uses at most; the rest is the host's. */
    public static final int SCAN_MAX_RUNS = 64;

    /**
     * Runs tasklet instance {@code instance} (a FIXED layout, from
     * {@link SmartSsdDevice#createTasklet}) in the drive, now, over the records of one file
     * of {@code fileBytes} bytes that lie wholly inside runs of cached blocks (SSC_SCAN).
     * Its result is in the instance's output ({@link SmartSsdDevice#readOutput}); with no
     * run the tasklet does not run. The records outside the returned runs are the
     * caller's.
     *
     * @param versionDigest null when each cache block is {@link #blockSize()} raw bytes of
     *        the file; else the file version's 32-byte digest, and the blocks are the
     *        caching FileSystem's (a 64-byte header, checked in the drive)
     * @throws SmartSsdException of reason {@link Reason#STALE_BLOCK} when a block read is not of that version: use none
     *         of the run
     */
    public java.util.List<ScanRun> scan(long instance, long fileBytes, byte[] versionDigest,
                                        java.util.List<ScanRange> ranges) throws IOException {
        if (ranges.isEmpty() || ranges.size() > SCAN_MAX_RANGES) {
            throw new IllegalArgumentException("a scan takes 1 to " + SCAN_MAX_RANGES
                    + " ranges, got " + ranges.size());
        }
        if (versionDigest != null && versionDigest.length != 32) {
            throw new IllegalArgumentException("a version digest has 32 bytes, got "
                    + versionDigest.length);
        }
        long[] r = new long[3 * ranges.size()];
        for (int i = 0; i < ranges.size(); i++) {
            ScanRange g = ranges.get(i);
            checkRange(g.firstBlock(), (int) Math.min(Integer.MAX_VALUE, g.blocks()));
            r[3 * i] = g.firstBlock();
            r[3 * i + 1] = g.blocks();
            r[3 * i + 2] = g.fileBlock();
        }
        return s.withScratch((h, out) -> {
            int n = (int) s.check(SmartSsdNative.cacheScan0(h, instance, fileBytes,
                    versionDigest, r, ranges.size(), out), "cache scan",
                    "tasklet " + instance + " over " + ranges.size() + " range(s) of a "
                    + fileBytes + "-byte file");
            java.util.List<ScanRun> runs = new java.util.ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                runs.add(new ScanRun(out.getLong(32 * i), out.getLong(32 * i + 8),
                        out.getLong(32 * i + 16), out.getLong(32 * i + 24)));
            }
            return runs;
        });
    }

    /** The cache's counters now: hits, misses, silent evictions, dirty blocks, write
     *  amplification, ... */
    public CacheCounters counters() throws IOException {
        return counters(s);
    }

    private void write(boolean dirty, long firstBlock, byte[] src, int off, int count)
            throws IOException {
        checkRange(firstBlock, count);
        Objects.checkFromIndexSize(off, Math.multiplyExact(count, blockSize), src.length);
        staged(firstBlock, count, (st, first, at, n) -> {
            int bytes = n * blockSize;
            st.clear();
            st.put(0, src, off + at * blockSize, bytes);
            try {
                s.withHandle(h -> s.check(SmartSsdNative.cacheWrite0(h, dirty, first, n, st, 0,
                        bytes), dirty ? "cache write-dirty" : "cache write-clean",
                        blocks(first, n)));
                s.bytesToDrive.addAndGet(bytes);
            } catch (DriveFullException e) {
                throw new DriveFullException(e.getMessage() + " (the cache is full of dirty "
                        + "blocks, or has no good blocks left: smartssd info counts the retired "
                        + "ones; blocks before " + Long.toUnsignedString(first)
                        + " were written; clean or evict some and retry)",
                        e.status().errno(), e.status().reasonCode());
            }
        });
    }

    /** One command's worth of a data range, through a staging buffer. */
    private interface Chunk {
        void run(ByteBuffer staging, long first, int at, int n) throws IOException;
    }

    /** Runs `chunk` over [firstBlock, firstBlock + count) in pieces one staging buffer
     *  holds. */
    private void staged(long firstBlock, int count, Chunk chunk) throws IOException {
        int per = DeviceSession.STAGING_SIZE / blockSize;
        ByteBuffer st = s.staging.take();
        try {
            for (int done = 0; done < count; done += Math.min(per, count - done)) {
                chunk.run(st, firstBlock + done, done, Math.min(per, count - done));
            }
        } finally {
            s.staging.give(st);
        }
    }

    private void range(int op, String what, long firstBlock, int count) throws IOException {
        checkRange(firstBlock, count);
        s.withHandle(h -> s.check(SmartSsdNative.cacheRange0(h, op, firstBlock, count, null),
                what, blocks(firstBlock, count)));
    }

    private static void checkRange(long firstBlock, int count) {
        if (count <= 0) {
            throw new IllegalArgumentException("a cache range needs at least one block, got "
                    + count);
        }
        // unsigned: the range must end before block 2^64 - 1
        if (Long.compareUnsigned(firstBlock, -1L - count) > 0) {
            throw new IllegalArgumentException("cache blocks " + Long.toUnsignedString(firstBlock)
                    + " + " + count + " run past the last cache block");
        }
    }

    private static int words(int count) {
        return (count + 63) / 64;
    }

    private static String blocks(long first, int n) {
        return "blocks " + Long.toUnsignedString(first) + "+" + n;
    }

    /** Bits [0, n) of the LSB-first bitmap at out's start into words from bit `at`. */
    /** Marks the present ones of the n blocks at {@code at}; returns how many there are. */
    private static int mergeBits(long[] words, int at, ByteBuffer out, int n) {
        int present = 0;
        for (int i = 0; i < n; i++) {
            if ((out.get(i >>> 3) & (1 << (i & 7))) != 0) {
                int b = at + i;
                words[b >>> 6] |= 1L << (b & 63);
                present++;
            }
        }
        return present;
    }
}
