package org.smartssd.fs;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

import org.apache.hadoop.fs.ByteBufferPositionedReadable;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanSetReadahead;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.VectoredReadUtils;
import org.apache.hadoop.fs.impl.CombinedFileRange;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.StreamStatisticNames;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.smartssd.fs.impl.AdaptiveReadahead;
import org.smartssd.fs.impl.ErrorTranslation;
import org.smartssd.fs.impl.ObjectIo;
import org.smartssd.fs.impl.StoreContext;
import org.smartssd.fs.impl.TailCache;

/**
 * Reads one file on the drive by its object id. Sequential reads go through a read-ahead
 * buffer of {@link SmartSsdConstants#READAHEAD} bytes filled by one READ command; reads at
 * least that large go straight into the caller's memory. Positioned, ByteBuffer and vectored
 * reads never touch the stream's position or buffer.
 *
 * <p>The read-ahead is adaptive, as a kernel's page cache is ({@link AdaptiveReadahead},
 * the rule {@code sscache://} shares). The stream's first read fetches a whole read-ahead.
 * A read that goes on where the last fetch ended, or at most
 * {@value AdaptiveReadahead#SHORT_SKIP} bytes past it, fetches twice the last fetch, up to
 * the read-ahead; any other read is a jump, back or forward, and fetches what it asks for,
 * at least {@value AdaptiveReadahead#RANDOM_FILL_MIN} bytes. Parquet readers alternate
 * between a row group's column and offset indexes near the footer and its pages: a whole
 * read-ahead at every jump moved 33 times the file over the link. With a filter they also
 * read a few bytes of one column chunk in each row group (its dictionary page): had every
 * forward skip shorter than a read-ahead been a pass, those reads would double into whole
 * read-aheads and fetch the file a second time. A skip is worth reading through only while
 * it is shorter than what a READ of its own costs on the link
 * ({@link AdaptiveReadahead#SHORT_SKIP}).
 *
 * <p>The length is the file's at open; seeking past it asks the drive again (one STAT), so
 * data appended since can be reached. Not thread-safe for the sequential calls, as
 * {@code FSInputStream}; positioned reads may run concurrently with them.
 *
 * <p>Reads in the file's last bytes that reach its end, or what of it an earlier stream
 * of the same version already holds, go through the file system's {@link TailCache}: a
 * Parquet footer crosses the link once per instance, not once per stream. Vectored reads
 * do not use it.
 */
public class SmartSsdInputStream extends FSInputStream implements ByteBufferReadable,
        ByteBufferPositionedReadable, CanUnbuffer, CanSetReadahead, StreamCapabilities,
        IOStatisticsSource {
    private final StoreContext ctx;
    private final ObjectIo io;
    private final Path path;
    private final long oid;
    private final FileSystem.Statistics fsStats;
    private final IOStatisticsStore stats = IOStatisticsBinding.iostatisticsStore()
            .withCounters(StreamStatisticNames.STREAM_READ_BYTES,
                    StreamStatisticNames.STREAM_READ_TOTAL_BYTES,
                    StreamStatisticNames.STREAM_READ_OPERATIONS,
                    StreamStatisticNames.STREAM_READ_SEEK_OPERATIONS,
                    StreamStatisticNames.STREAM_READ_VECTORED_OPERATIONS,
                    StreamStatisticNames.STREAM_READ_VECTORED_INCOMING_RANGES,
                    StreamStatisticNames.STREAM_READ_VECTORED_COMBINED_RANGES,
                    StreamStatisticNames.STREAM_READ_VECTORED_READ_BYTES_DISCARDED,
                    StreamStatisticNames.STREAM_READ_UNBUFFERED,
                    StreamStatisticNames.STREAM_READ_EXCEPTIONS,
                    StreamStatisticNames.STREAM_READ_CLOSE_OPERATIONS,
                    TAIL_CACHE_HITS, TAIL_CACHE_BYTES)
            .build();
    /** Reads answered from the tail cache with no READ command. */
    public static final String TAIL_CACHE_HITS = "stream_read_tail_cache_hits";
    /** Bytes given from the tail cache that this read did not fetch: link bytes saved. */
    public static final String TAIL_CACHE_BYTES = "stream_read_tail_cache_bytes";
    private final TailCache tailCache;
    private final TailCache.Version version;
    private final String pathKey;

    private volatile long length;
    private volatile boolean closed;
    private long pos;
    private int readahead;
    private ByteBuffer buffer;
    private long bufferStart;
    /** The READs of the sequential calls, for the next one's size. */
    private final AdaptiveReadahead adaptive = new AdaptiveReadahead();

    /**
     * @param version   the file as it was at open
     * @param tailCache the file system's, or null
     */
    public SmartSsdInputStream(StoreContext ctx, ObjectIo io, Path path,
                               TailCache.Version version, int readahead, TailCache tailCache) {
        long oid = version.oid();
        long length = version.size();
        this.tailCache = tailCache != null && tailCache.enabled() ? tailCache : null;
        this.version = version;
        this.pathKey = ctx.pathToKey(path);
        this.ctx = ctx;
        this.io = io;
        this.path = path;
        this.oid = oid;
        this.length = length;
        this.fsStats = ctx.statistics();
        this.readahead = clampReadahead(readahead);
    }

    private static int clampReadahead(long r) {
        return (int) Math.max(512, Math.min(r, SmartSsdConstants.MAX_TRANSFER));
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException(path + ": " + FSExceptionMessages.STREAM_IS_CLOSED);
        }
    }

    private IOException translate(String what, IOException e) {
        stats.incrementCounter(StreamStatisticNames.STREAM_READ_EXCEPTIONS);
        return ErrorTranslation.translate(ctx, what, path, e);
    }

    private void countRead(long n) {
        if (n > 0) {
            stats.incrementCounter(StreamStatisticNames.STREAM_READ_BYTES, n);
            if (fsStats != null) {
                fsStats.incrementBytesRead(n);
            }
        }
    }

    /**
     * One READ of the object, or the tail cache's answer when {@code tail} (a jump: the
     * cache is for readers that seek to a file's end, not for passes over it, which
     * would be given a small file whole); translated errors.
     */
    private int readAt(long offset, ByteBuffer dst, boolean tail) throws IOException {
        if (tail && offset > 0 && tailCache != null && length == version.size()) {
            // the fetcher's errors are translated already
            TailCache.Served s = tailCache.read(version, pathKey, offset, dst, this::readDrive);
            if (s.handled()) {
                long saved = s.bytes() - s.fetched();
                if (s.fetched() == 0) {
                    count(TAIL_CACHE_HITS, 1);
                }
                count(TAIL_CACHE_BYTES, saved);
                return s.bytes();
            }
        }
        return readDrive(offset, dst);
    }

    /** Counts in the stream's statistics and the file system's. */
    private void count(String name, long n) {
        if (n > 0) {
            stats.incrementCounter(name, n);
            ctx.ioStatistics().incrementCounter(name, n);
        }
    }

    /** One READ of the object. */
    private int readDrive(long offset, ByteBuffer dst) throws IOException {
        stats.incrementCounter(StreamStatisticNames.STREAM_READ_OPERATIONS);
        if (fsStats != null) {
            fsStats.incrementReadOps(1);
        }
        int n;
        try {
            n = io.read(oid, offset, dst);
        } catch (IOException e) {
            throw translate("read", e);
        }
        if (n > 0) {
            stats.incrementCounter(StreamStatisticNames.STREAM_READ_TOTAL_BYTES, n);
        }
        return n;
    }

    /** A READ of the sequential calls at {@code offset}, remembered for the next one's rule. */
    private int fetchAt(long offset, ByteBuffer dst) throws IOException {
        int n = readAt(offset, dst, !adaptive.goesOn(offset));
        adaptive.fetched(offset, offset + Math.max(n, 0));
        return n;
    }

    private boolean inBuffer(long p) {
        return buffer != null && p >= bufferStart && p < bufferStart + buffer.limit();
    }

    /**
     * Makes the buffer hold {@code pos}, for a read of {@code want} bytes, fetching
     * {@link AdaptiveReadahead#fillSize}; false at the end of the file.
     */
    private boolean fill(int want) throws IOException {
        if (inBuffer(pos)) {
            return true;
        }
        if (buffer == null || buffer.capacity() != readahead) {
            buffer = ByteBuffer.allocateDirect(readahead);
        }
        buffer.clear().limit(adaptive.fillSize(pos, want, readahead));
        int n = fetchAt(pos, buffer);
        buffer.flip();
        bufferStart = pos;
        if (pos + n > length) {
            length = pos + n;
        }
        return n > 0;
    }

    @Override
    public synchronized int read() throws IOException {
        checkOpen();
        if (!fill(1)) {
            return -1;
        }
        int b = buffer.get((int) (pos - bufferStart)) & 0xff;
        pos++;
        countRead(1);
        return b;
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
        return read(ByteBuffer.wrap(b, off, len));
    }

    @Override
    public synchronized int read(ByteBuffer dst) throws IOException {
        checkOpen();
        int want = dst.remaining();
        if (want == 0) {
            return 0;
        }
        int n;
        if (!inBuffer(pos) && want >= readahead) {
            n = fetchAt(pos, dst);
            if (n <= 0) {
                return -1;
            }
        } else {
            if (!fill(want)) {
                return -1;
            }
            int at = (int) (pos - bufferStart);
            n = Math.min(want, buffer.limit() - at);
            dst.put(buffer.slice(at, n));
        }
        pos += n;
        countRead(n);
        return n;
    }

    @Override
    public synchronized void seek(long target) throws IOException {
        checkOpen();
        if (target < 0) {
            throw new EOFException(path + ": " + FSExceptionMessages.NEGATIVE_SEEK + " " + target);
        }
        if (target > length) {
            refreshLength();
            if (target > length) {
                throw new EOFException(path + ": " + FSExceptionMessages.CANNOT_SEEK_PAST_EOF
                        + " " + target + " (length " + length + ")");
            }
        }
        if (target != pos) {
            stats.incrementCounter(StreamStatisticNames.STREAM_READ_SEEK_OPERATIONS);
        }
        pos = target;
    }

    private void refreshLength() throws IOException {
        try {
            length = io.size(oid);
        } catch (IOException e) {
            throw translate("stat", e);
        }
    }

    /** The position; still answered after close, as HDFS does. */
    @Override
    public synchronized long getPos() {
        return pos;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
        return false;
    }

    @Override
    public synchronized int available() throws IOException {
        checkOpen();
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, length - pos));
    }

    // ---- positioned reads --------------------------------------------------------------

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
    public int read(long position, ByteBuffer dst) throws IOException {
        checkOpen();
        if (position < 0) {
            throw new EOFException(path + ": cannot read at a negative position"
                    + " " + position);
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        int n = readAt(position, dst, true);
        countRead(n);
        return n <= 0 ? -1 : n;
    }

    @Override
    public void readFully(long position, ByteBuffer dst) throws IOException {
        long at = position;
        while (dst.hasRemaining()) {
            int n = read(at, dst);
            if (n < 0) {
                throw new EOFException(path + ": " + FSExceptionMessages.EOF_IN_READ_FULLY
                        + " at " + at + " with " + dst.remaining() + " bytes still to read");
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

    /** Bytes of merged ranges read through one submission queue at a time. */
    static final int VECTORED_BATCH = 16 << 20;
    /** Reads a vectored read keeps in the drive at most: the drive's queue depth. The
     *  library keeps fewer there while the drive has no room for more (BUSY). */
    static final int VECTORED_DEPTH = 32;

    /**
     * Vectored read: the ranges are checked against the file's length first (an
     * {@code EOFException} before any data moves), sorted, and merged as Hadoop's
     * {@link VectoredReadUtils#mergeSortedRanges} does: ranges less than
     * {@link #minSeekForVectorReads()} apart become one read of at most
     * {@link #maxReadSizeForVectorReads()} bytes (the gap is read and dropped). The merged
     * reads go in offset order through one submission queue, up to {@value #VECTORED_DEPTH}
     * in the drive at once, in batches of at most {@value #VECTORED_BATCH} bytes (a longer
     * range alone with positioned reads); every future is completed before this returns.
     */
    @Override
    public void readVectored(List<? extends FileRange> ranges,
                             IntFunction<ByteBuffer> allocate) throws IOException {
        checkOpen();
        stats.incrementCounter(StreamStatisticNames.STREAM_READ_VECTORED_OPERATIONS);
        stats.incrementCounter(StreamStatisticNames.STREAM_READ_VECTORED_INCOMING_RANGES,
                ranges.size());
        long end = 0;
        for (FileRange r : ranges) {
            end = Math.max(end, r.getOffset() + r.getLength());
        }
        if (end > length) {
            refreshLength();
        }
        List<? extends FileRange> sorted = VectoredReadUtils.validateAndSortRanges(ranges,
                Optional.of(length));
        for (FileRange r : ranges) {
            r.setData(new CompletableFuture<>());
        }
        List<CombinedFileRange> merged = VectoredReadUtils.mergeSortedRanges(sorted, 1,
                minSeekForVectorReads(), maxReadSizeForVectorReads());
        stats.incrementCounter(StreamStatisticNames.STREAM_READ_VECTORED_COMBINED_RANGES,
                merged.size());
        List<CombinedFileRange> batch = new ArrayList<>();
        long bytes = 0;
        for (CombinedFileRange c : merged) {
            if (c.getLength() > VECTORED_BATCH) {
                // longer than maxReadSizeForVectorReads: one range, never merged
                c.getUnderlying().forEach(r -> readRange(r, allocate));
                continue;
            }
            if (bytes + c.getLength() > VECTORED_BATCH) {
                readBatch(batch, allocate);
                batch.clear();
                bytes = 0;
            }
            batch.add(c);
            bytes += c.getLength();
        }
        readBatch(batch, allocate);
    }

    private void readRange(FileRange r, IntFunction<ByteBuffer> allocate) {
        CompletableFuture<ByteBuffer> data = r.getData();
        try {
            ByteBuffer b = allocate.apply(r.getLength());
            int start = b.position();
            b.limit(start + r.getLength());
            readFully(r.getOffset(), b);
            b.position(start);
            data.complete(b);
        } catch (IOException | RuntimeException e) {
            data.completeExceptionally(e);
        }
    }

    /** The merged reads through one submission queue into one direct buffer; then each
     *  range its own buffer, sliced from its merged read. */
    private void readBatch(List<CombinedFileRange> batch, IntFunction<ByteBuffer> allocate) {
        if (batch.isEmpty()) {
            return;
        }
        long[] offsets = new long[batch.size()];
        int[] lens = new int[batch.size()];
        int total = 0;
        for (int i = 0; i < lens.length; i++) {
            offsets[i] = batch.get(i).getOffset();
            lens[i] = batch.get(i).getLength();
            total += lens[i];
        }
        ByteBuffer staged = ByteBuffer.allocateDirect(Math.max(1, total));
        int[] counts;
        try {
            stats.incrementCounter(StreamStatisticNames.STREAM_READ_OPERATIONS, lens.length);
            if (fsStats != null) {
                fsStats.incrementReadOps(lens.length);
            }
            counts = io.readRanges(oid, offsets, lens, staged, VECTORED_DEPTH);
        } catch (IOException e) {
            IOException t = translate("read", e);
            batch.forEach(c -> c.getUnderlying()
                    .forEach(r -> r.getData().completeExceptionally(t)));
            return;
        }
        int at = 0;
        for (int i = 0; i < lens.length; i++) {
            CombinedFileRange c = batch.get(i);
            long used = 0;
            for (FileRange r : c.getUnderlying()) {
                complete(r, staged, at, c.getOffset(), counts[i], allocate);
                used += r.getLength();
            }
            stats.incrementCounter(
                    StreamStatisticNames.STREAM_READ_VECTORED_READ_BYTES_DISCARDED,
                    Math.max(0, counts[i] - used));
            at += lens[i];
        }
    }

    /** Range r's bytes from the merged read at {@code at} in staged, which read
     *  {@code count} bytes from {@code mergedOffset}. */
    private void complete(FileRange r, ByteBuffer staged, int at, long mergedOffset, int count,
                          IntFunction<ByteBuffer> allocate) {
        int skip = (int) (r.getOffset() - mergedOffset);
        try {
            if (count - skip < r.getLength()) {
                int got = Math.max(0, count - skip);
                throw new EOFException(path + ": " + FSExceptionMessages.EOF_IN_READ_FULLY
                        + " at " + (r.getOffset() + got) + " with " + (r.getLength() - got)
                        + " bytes still to read");
            }
            ByteBuffer b = allocate.apply(r.getLength());
            int start = b.position();
            ByteBuffer part = staged.duplicate();
            part.limit(at + skip + r.getLength()).position(at + skip);
            b.put(part);
            b.position(start);
            countRead(r.getLength());
            r.getData().complete(b);
        } catch (IOException | RuntimeException e) {
            r.getData().completeExceptionally(e);
        }
    }

    // ---- buffers and capabilities ------------------------------------------------------

    @Override
    public synchronized void unbuffer() {
        stats.incrementCounter(StreamStatisticNames.STREAM_READ_UNBUFFERED);
        buffer = null;
    }

    @Override
    public synchronized void setReadahead(Long bytes) {
        if (bytes != null && bytes < 0) {
            throw new IllegalArgumentException("negative read-ahead " + bytes);
        }
        int r = bytes == null ? SmartSsdConstants.READAHEAD_DEFAULT : clampReadahead(bytes);
        if (r != readahead) {
            readahead = r;
            buffer = null;
        }
    }

    @Override
    public boolean hasCapability(String capability) {
        switch (capability.toLowerCase(java.util.Locale.ROOT)) {
            case StreamCapabilities.READAHEAD:
            case StreamCapabilities.UNBUFFER:
            case StreamCapabilities.READBYTEBUFFER:
            case StreamCapabilities.PREADBYTEBUFFER:
            case StreamCapabilities.IOSTATISTICS:
            case StreamCapabilities.VECTOREDIO:
                return true;
            default:
                return false;
        }
    }

    @Override
    public IOStatistics getIOStatistics() {
        return stats;
    }

    /** Idempotent; later calls other than close throw. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            buffer = null;
            stats.incrementCounter(StreamStatisticNames.STREAM_READ_CLOSE_OPERATIONS);
        }
    }

    @Override
    public String toString() {
        return "SmartSsdInputStream[" + path + ", object " + Long.toUnsignedString(oid)
                + ", pos " + pos + ", length " + length + (closed ? ", closed]" : "]");
    }
}
