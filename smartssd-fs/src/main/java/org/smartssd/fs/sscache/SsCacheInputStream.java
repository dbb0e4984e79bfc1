package org.smartssd.fs.sscache;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

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
 */
final class SsCacheInputStream extends FSInputStream implements CanUnbuffer, StreamCapabilities {
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
        if (len == 0) {
            return 0;
        }
        if (pos >= version.length()) {
            return cacheOnly ? -1 : readPastVersion(b, off, len);
        }
        if (windowStart < 0 || pos < windowStart || pos >= windowStart + windowLength) {
            load(pos, len);
        }
        int n = (int) Math.min(len, windowStart + windowLength - pos);
        System.arraycopy(window, (int) (pos - windowStart), b, off, n);
        pos += n;
        if (fsStats != null) {
            fsStats.incrementBytesRead(n);
        }
        return n;
    }

    /**
     * Bytes past the length this stream's version had at open: a file still being written
     * (HDFS reports the length of its completed blocks; hflush makes more visible). They
     * come from the backing store, never cached: they belong to no known version.
     */
    private int readPastVersion(byte[] b, int off, int len) throws IOException {
        if (backingIn == null) {
            backingIn = backing.open(backingPath);
        }
        int n = backingIn.read(pos, b, off, len);
        if (n > 0) {
            pos += n;
            stats.incrementCounter(CacheStatistics.BYTES_FROM_BACKING, n);
            if (fsStats != null) {
                fsStats.incrementBytesRead(n);
            }
        }
        return n;
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
        int length = (int) Math.min((long) count * payload, version.length() - first * payload);
        boolean[] hit = new boolean[count];
        if (first + count <= CacheBlock.Addresses.MAX_BLOCKS_PER_FILE) {
            try {
                hit = io.read(version, digest, first, count, window);
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
            readBacking(first * payload + from, window, from, to - from);
            filled = true;
            k = end;
        }
        if (filled && unchangedOnBacking()) {
            fillMisses(first, count, hit, length);
        }
        windowStart = first * payload;
        windowLength = length;
        adaptive.fetched(windowStart, windowStart + length);
    }

    /** Queues each run of missed blocks, copied: the window is reused. */
    private void fillMisses(long first, int count, boolean[] hit, int length)
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
            System.arraycopy(window, from, run, 0, run.length);
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
     * positioned read does, one after another; every future is completed before this
     * returns.
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
        return StreamCapabilities.UNBUFFER.equalsIgnoreCase(capability)
                || StreamCapabilities.VECTOREDIO.equalsIgnoreCase(capability);
    }
}
