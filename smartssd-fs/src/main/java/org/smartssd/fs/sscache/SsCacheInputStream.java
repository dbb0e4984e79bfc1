package org.smartssd.fs.sscache;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.VectoredReadUtils;
import org.apache.hadoop.fs.impl.CombinedFileRange;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.smartssd.fs.DriveLog;
import org.smartssd.fs.impl.AdaptiveReadahead;

/**
 * Reads one version of a file through the cache: a window of up to
 * {@code maxBlocksPerCall} cache blocks per drive READ, as many as the read-ahead rule of
 * {@code smartssd://} asks for ({@link AdaptiveReadahead}: a whole window for the first read
 * and a pass, the blocks holding what a jump asks for); the blocks that miss are read from
 * the backing store whole (a cache block holds its whole payload: only the file's last one
 * is partial), each run of adjacent misses in one positioned read, and cached clean
 * (unless the file changed on the backing store meanwhile) through the file system's
 * {@link FillQueue}: the reader has the bytes at once, the drive is written behind it. A
 * file written back later
 * ({@code cacheOnly}) is served from its dirty blocks alone.
 *
 * <p>Positioned, positioned ByteBuffer and vectored reads leave the stream's position,
 * window and read-ahead alone, as on {@code smartssd://}: a read in the window is copied
 * from it, any other reads the blocks it asks for (at most a window's, a call) into a
 * second buffer, missing blocks filled as above. A reader mixing them with a pass
 * (Parquet's footer and page reads) then costs the pass nothing. Unlike there, they hold
 * the stream's lock (they share its backing stream and pending fills).
 */
final class SsCacheInputStream extends FSInputStream implements ByteBufferReadable,
        ByteBufferPositionedReadable, CanUnbuffer, StreamCapabilities {
    private final BlockCacheIo io;
    private final FillQueue fills;
    private final FileVersion version;
    private final byte[] digest;
    private final FileSystem backing;
    private final Path backingPath;
    private final boolean cacheOnly;
    private final IOStatisticsStore stats;
    private final FileSystem.Statistics fsStats;
    private final int payload;
    private FSDataInputStream backingIn;
    private byte[] window;
    private long windowStart = -1;
    private int windowLength;
    /** The blocks of a positioned read outside the window; reused, as the window is. */
    private byte[] scratch;
    private long pos;
    /** The windows loaded by the sequential calls, for the next one's size. */
    private final AdaptiveReadahead adaptive = new AdaptiveReadahead();
    private boolean closed;
    /** The last fill this stream queued: close waits for it. */
    private long lastFill;

    SsCacheInputStream(BlockCacheIo io, FillQueue fills, FileVersion version,
                       FileSystem backing, Path backingPath, boolean cacheOnly,
                       IOStatisticsStore stats, FileSystem.Statistics fsStats) {
        this.io = io;
        this.fills = fills;
        this.version = version;
        this.digest = version.digest();
        this.backing = backing;
        this.backingPath = backingPath;
        this.cacheOnly = cacheOnly;
        this.stats = stats;
        this.fsStats = fsStats;
        this.payload = io.payload();
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + version.pathKey());
        }
    }

    @Override
    public synchronized void seek(long target) throws IOException {
        checkOpen();
        if (target < 0) {
            throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + ": " + target);
        }
        if (target > version.length()) {
            throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + ": " + target
                    + " > " + version.length());
        }
        pos = target;
    }

    @Override
    public synchronized long getPos() throws IOException {
        return pos;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
        return false;
    }

    @Override
    public synchronized int available() throws IOException {
        checkOpen();
        return (int) Math.min(Integer.MAX_VALUE, version.length() - pos);
    }

    @Override
    public synchronized int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public synchronized int read(byte[] b, int off, int len) throws IOException {
        checkOpen();
        if (off < 0 || len < 0 || len > b.length - off) {
            throw new IndexOutOfBoundsException("offset " + off + ", length " + len
                    + ", buffer " + b.length);
        }
        return read(ByteBuffer.wrap(b, off, len));
    }

    /** Heap or direct: the window's bytes go straight into {@code dst}. */
    @Override
    public synchronized int read(ByteBuffer dst) throws IOException {
        checkOpen();
        int len = dst.remaining();
        if (len == 0) {
            return 0;
        }
        if (pos >= version.length()) {
            int n = cacheOnly ? -1 : readPastVersion(pos, dst);
            if (n > 0) {
                pos += n;
            }
            return n;
        }
        if (windowStart < 0 || pos < windowStart || pos >= windowStart + windowLength) {
            load(pos, len);
        }
        int n = (int) Math.min(len, windowStart + windowLength - pos);
        dst.put(window, (int) (pos - windowStart), n);
        pos += n;
        countRead(n);
        return n;
    }

    private void countRead(int n) {
        if (fsStats != null) {
            fsStats.incrementBytesRead(n);
        }
    }

    /**
     * Bytes past the length this stream's version had at open: a file still being written
     * (HDFS reports the length of its completed blocks; hflush makes more visible). They
     * come from the backing store, never cached: they belong to no known version.
     */
    private int readPastVersion(long at, ByteBuffer dst) throws IOException {
        if (backingIn == null) {
            backingIn = backing.open(backingPath);
        }
        int len = dst.remaining();
        byte[] b = dst.hasArray() ? dst.array() : new byte[len];
        int off = dst.hasArray() ? dst.arrayOffset() + dst.position() : 0;
        int n = backingIn.read(at, b, off, len);
        if (n > 0) {
            if (dst.hasArray()) {
                dst.position(dst.position() + n);
            } else {
                dst.put(b, 0, n);
            }
            stats.incrementCounter(CacheStatistics.BYTES_FROM_BACKING, n);
            countRead(n);
        }
        return n;
    }

    // ---- positioned reads: the position, window and read-ahead stay as they are ------

    @Override
    public int read(long position, byte[] b, int off, int len) throws IOException {
        checkOpen();
        validatePositionedReadArgs(position, b, off, len);
        if (len == 0) {
            return 0;
        }
        return read(position, ByteBuffer.wrap(b, off, len));
    }

    @Override
    public synchronized int read(long position, ByteBuffer dst) throws IOException {
        checkOpen();
        if (position < 0) {
            throw new EOFException(version.pathKey() + ": cannot read at a negative position "
                    + position);
        }
        int len = dst.remaining();
        if (len == 0) {
            return 0;
        }
        if (position >= version.length()) {
            return cacheOnly ? -1 : readPastVersion(position, dst);
        }
        int n;
        if (windowStart >= 0 && position >= windowStart
                && position < windowStart + windowLength) {
            n = (int) Math.min(len, windowStart + windowLength - position);
            dst.put(window, (int) (position - windowStart), n);
        } else {
            long first = position / payload;
            long last = (Math.min(version.length(), position + len) - 1) / payload;
            int count = (int) Math.min(io.maxBlocksPerCall(), last - first + 1);
            if (scratch == null || scratch.length < count * payload) {
                scratch = new byte[io.maxBlocksPerCall() * payload];
            }
            int length = fetch(first, count, scratch);
            int at = (int) (position - first * payload);
            n = Math.min(len, length - at);
            dst.put(scratch, at, n);
        }
        countRead(n);
        return n;
    }

    @Override
    public void readFully(long position, ByteBuffer dst) throws IOException {
        long at = position;
        while (dst.hasRemaining()) {
            int n = read(at, dst);
            if (n < 0) {
                throw new EOFException(version.pathKey() + ": "
                        + FSExceptionMessages.EOF_IN_READ_FULLY + " at " + at + " with "
                        + dst.remaining() + " bytes still to read");
            }
            at += n;
        }
    }

    @Override
    public void readFully(long position, byte[] b, int off, int len) throws IOException {
        checkOpen();
        validatePositionedReadArgs(position, b, off, len);
        readFully(position, ByteBuffer.wrap(b, off, len));
    }

    /**
     * Fills the window with the blocks from the one holding {@code at} that cover the
     * {@link AdaptiveReadahead#fillSize} bytes a read of {@code want} there fetches.
     */
    private void load(long at, int want) throws IOException {
        long first = at / payload;
        int fill = adaptive.fillSize(at, want, io.maxBlocksPerCall() * payload);
        long last = (Math.min(version.length(), at + fill) - 1) / payload;
        int count = (int) Math.min(io.maxBlocksPerCall(), last - first + 1);
        if (window == null || window.length < count * payload) {
            window = new byte[io.maxBlocksPerCall() * payload];
        }
        int length = fetch(first, count, window);
        windowStart = first * payload;
        windowLength = length;
        adaptive.fetched(windowStart, windowStart + length);
    }

    /**
     * Reads blocks [first, first + count) into {@code dst} in one drive READ, the misses
     * from the backing store (then queued to be cached); returns the bytes they hold.
     */
    private int fetch(long first, int count, byte[] dst) throws IOException {
        int length = (int) Math.min((long) count * payload, version.length() - first * payload);
        boolean[] hit = new boolean[count];
        if (first + count <= CacheBlock.Addresses.MAX_BLOCKS_PER_FILE) {
            try {
                hit = io.read(version, digest, first, count, dst);
            } catch (IOException e) {
                if (cacheOnly) {
                    throw e;
                }
                // the drive failed: the backing store has every byte
                DriveLog.of(SsCacheInputStream.class, io.cache().drive()).warn(
                        "{}: reading the drive's cache failed ({}); reading the backing store",
                        version.pathKey(), e.toString());
            }
        }
        boolean filled = false;
        for (int k = 0; k < count; ) {
            if (hit[k]) {
                k++;
                continue;
            }
            int end = k;
            while (end < count && !hit[end]) {
                end++;
            }
            if (cacheOnly) {
                throw new IOException(version.pathKey() + ": blocks " + (first + k) + ".."
                        + (first + end - 1) + " of a file not yet written back are missing "
                        + "from the cache");
            }
            int from = k * payload;
            int to = Math.min(end * payload, length);
            readBacking(first * payload + from, dst, from, to - from);
            filled = true;
            k = end;
        }
        if (filled && unchangedOnBacking()) {
            fillMisses(first, count, hit, length, dst);
        }
        return length;
    }

    /** Queues each run of missed blocks, copied: {@code src} is reused. */
    private void fillMisses(long first, int count, boolean[] hit, int length, byte[] src)
            throws java.io.InterruptedIOException {
        for (int k = 0; k < count; ) {
            if (hit[k]) {
                k++;
                continue;
            }
            int end = k;
            while (end < count && !hit[end]) {
                end++;
            }
            int from = k * payload;
            int to = Math.min(end * payload, length);
            byte[] run = new byte[to - from];
            System.arraycopy(src, from, run, 0, run.length);
            long seq = fills.submit(new FillQueue.Fill(version, digest, first + k, end - k, run));
            lastFill = Math.max(lastFill, seq);
            k = end;
        }
    }

    /** A miss is cached only if the backing file is still the version this stream reads. */
    private boolean unchangedOnBacking() throws IOException {
        try {
            FileStatus now = backing.getFileStatus(backingPath);
            FileVersion v = FileVersion.of(now);
            return v.length() == version.length() && v.mtime() == version.mtime()
                    && v.etag().equals(version.etag());
        } catch (java.io.FileNotFoundException e) {
            return false;
        }
    }

    private void readBacking(long position, byte[] dst, int off, int len) throws IOException {
        if (backingIn == null) {
            backingIn = backing.open(backingPath);
        }
        backingIn.readFully(position, dst, off, len);
        stats.incrementCounter(CacheStatistics.BYTES_FROM_BACKING, len);
    }

    /**
     * Vectored read: ranges past the end fail here, before any is read (the length is
     * known). The ranges are sorted and merged as Hadoop's
     * {@link VectoredReadUtils#mergeSortedRanges} does (less than
     * {@link #minSeekForVectorReads()} apart, at most {@link #maxReadSizeForVectorReads()}
     * bytes, about one cache window), and each merged read goes through the cache as a
     * positioned read does, one after another (the stream's position, window and
     * read-ahead unmoved); every future is completed before this returns.
     */
    @Override
    public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate)
            throws IOException {
        checkOpen();
        List<? extends FileRange> sorted = VectoredReadUtils.validateAndSortRanges(ranges,
                Optional.of(version.length()));
        for (FileRange r : ranges) {
            r.setData(new CompletableFuture<>());
        }
        for (CombinedFileRange c : VectoredReadUtils.mergeSortedRanges(sorted, 1,
                minSeekForVectorReads(), maxReadSizeForVectorReads())) {
            readMerged(c, allocate);
        }
    }

    private void readMerged(CombinedFileRange c, IntFunction<ByteBuffer> allocate) {
        byte[] merged = new byte[c.getLength()];
        try {
            readFully(c.getOffset(), merged, 0, merged.length);
        } catch (IOException | RuntimeException e) {
            c.getUnderlying().forEach(r -> r.getData().completeExceptionally(e));
            return;
        }
        for (FileRange r : c.getUnderlying()) {
            try {
                ByteBuffer b = allocate.apply(r.getLength());
                int start = b.position();
                b.put(merged, (int) (r.getOffset() - c.getOffset()), r.getLength());
                b.position(start);
                r.getData().complete(b);
            } catch (RuntimeException e) {
                r.getData().completeExceptionally(e);
            }
        }
    }

    @Override
    public synchronized void unbuffer() {
        window = null;
        scratch = null;
        windowStart = -1;
        closeBacking();
    }

    private void closeBacking() {
        if (backingIn != null) {
            try {
                backingIn.close();
            } catch (IOException e) {
                // a read-only stream: nothing is lost by a failed close
            }
            backingIn = null;
        }
    }

    /** Waits for the fills this stream queued (bounded; past that they go on unwaited). */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            window = null;
            scratch = null;
            closeBacking();
            try {
                fills.awaitDone(lastFill, fills.waitMs());
            } catch (java.io.InterruptedIOException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                DriveLog.of(SsCacheInputStream.class, io.cache().drive()).warn(
                        "{}: closed before its blocks were cached ({})", version.pathKey(),
                        e.getMessage());
            }
        }
    }

    @Override
    public boolean hasCapability(String capability) {
        switch (capability.toLowerCase(java.util.Locale.ROOT)) {
            case StreamCapabilities.UNBUFFER:
            case StreamCapabilities.VECTOREDIO:
            case StreamCapabilities.READBYTEBUFFER:
            case StreamCapabilities.PREADBYTEBUFFER:
                return true;
            default:
                return false;
        }
    }
}
