package org.smartssd.fs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.function.Consumer;

import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.apache.hadoop.fs.statistics.StreamStatisticNames;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.apache.hadoop.util.Progressable;
import org.smartssd.fs.impl.ErrorTranslation;
import org.smartssd.fs.impl.ObjectIo;
import org.smartssd.fs.impl.StoreContext;

/**
 * Writes one file on the drive, from a start offset (0 for create, the size for append).
 * Bytes collect in a buffer of {@link SmartSsdConstants#WRITE_QUEUE_DEPTH} pieces of
 * {@link SmartSsdConstants#WRITE_BUFFER} bytes; a full buffer goes to the drive at the next
 * offset as that many WRITE commands, all in the drive at once (queued), and the progress
 * callback is told after each buffer.
 *
 * <ul>
 *   <li>{@link #hflush()}: the buffer goes to the drive; every process reading the file
 *       sees the bytes. Cost: one WRITE when bytes are buffered.</li>
 *   <li>{@link #hsync()}: hflush, then the drive's FLUSH: the bytes survive a crash or a
 *       power cut. Cost: one WRITE when buffered, one FLUSH.</li>
 *   <li>{@link #flush()}: nothing; it would cost a small WRITE for every call, which
 *       formatters make often. Use hflush to publish.</li>
 *   <li>{@link #close()}: writes what is buffered, as hflush, so the file is complete and
 *       visible once close returns; not a FLUSH (as HDFS, durability is hsync's). Later
 *       writes throw; a second close does nothing.</li>
 * </ul>
 * A failed WRITE leaves the file as it was before that command (the drive writes all or
 * nothing), and the drive runs none of the buffer's WRITEs after it (ORDERED writes): the
 * file holds the bytes before it. The stream then refuses further writes and close reports
 * nothing more.
 */
public class SmartSsdOutputStream extends OutputStream implements Syncable, StreamCapabilities,
        IOStatisticsSource {
    private final StoreContext ctx;
    private final ObjectIo io;
    private final Path path;
    private final long oid;
    private final Progressable progress;
    private final Consumer<SmartSsdOutputStream> onClose;
    private final IOStatisticsStore stats = IOStatisticsBinding.iostatisticsStore()
            .withCounters(StreamStatisticNames.STREAM_WRITE_BYTES,
                    StreamStatisticNames.STREAM_WRITE_EXCEPTIONS,
                    StoreStatisticNames.OP_HFLUSH, StoreStatisticNames.OP_HSYNC)
            .build();
    private final ByteBuffer buffer;
    private final int queueDepth;
    private long written;
    private boolean closed;
    private IOException failure;

    /**
     * @param start      offset of the first byte written (the size, to append)
     * @param bufferSize bytes of one WRITE command
     * @param queueDepth WRITE commands of a full buffer, sent queued
     * @param onClose    told once when the stream closes (the file system's open-writer set)
     */
    public SmartSsdOutputStream(StoreContext ctx, ObjectIo io, Path path, long oid, long start,
                                int bufferSize, int queueDepth, Progressable progress,
                                Consumer<SmartSsdOutputStream> onClose) {
        this.ctx = ctx;
        this.io = io;
        this.path = path;
        this.oid = oid;
        this.written = start;
        this.progress = progress;
        this.onClose = onClose;
        if (queueDepth < 1 || queueDepth > SmartSsdConstants.QUEUE_DEPTH_MAX) {
            throw new IllegalArgumentException(SmartSsdConstants.WRITE_QUEUE_DEPTH + " = "
                    + queueDepth + " is outside 1.." + SmartSsdConstants.QUEUE_DEPTH_MAX);
        }
        int piece = Math.max(4096, Math.min(bufferSize, SmartSsdConstants.MAX_TRANSFER));
        this.queueDepth = queueDepth;
        this.buffer = ByteBuffer.allocateDirect(piece * queueDepth);
    }

    public Path path() {
        return path;
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException(path + ": " + FSExceptionMessages.STREAM_IS_CLOSED);
        }
        if (failure != null) {
            throw new IOException(path + ": an earlier write failed, the stream takes no more "
                    + "bytes: " + failure.getMessage(), failure);
        }
    }

    @Override
    public synchronized void write(int b) throws IOException {
        checkOpen();
        if (!buffer.hasRemaining()) {
            drain();
        }
        buffer.put((byte) b);
        stats.incrementCounter(StreamStatisticNames.STREAM_WRITE_BYTES);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        checkOpen();
        if (off < 0 || len < 0 || len > b.length - off) {
            throw new IndexOutOfBoundsException("offset " + off + ", length " + len
                    + ", buffer " + b.length);
        }
        int done = 0;
        while (done < len) {
            if (!buffer.hasRemaining()) {
                drain();
            }
            int n = Math.min(len - done, buffer.remaining());
            buffer.put(b, off + done, n);
            done += n;
        }
        stats.incrementCounter(StreamStatisticNames.STREAM_WRITE_BYTES, len);
    }

    /** Sends the buffered bytes: a WRITE per piece, queued. */
    private void drain() throws IOException {
        if (buffer.position() == 0) {
            return;
        }
        buffer.flip();
        try {
            long n = io.write(oid, written, buffer, queueDepth);
            written += n;
        } catch (IOException e) {
            stats.incrementCounter(StreamStatisticNames.STREAM_WRITE_EXCEPTIONS);
            failure = ErrorTranslation.translate(ctx, "write", path, e);
            throw failure;
        } finally {
            buffer.clear();
        }
        if (progress != null) {
            progress.progress();
        }
    }

    /** Does nothing: see the class comment; {@link #hflush()} publishes. */
    @Override
    public void flush() {
    }

    @Override
    public synchronized void hflush() throws IOException {
        checkOpen();
        stats.incrementCounter(StoreStatisticNames.OP_HFLUSH);
        drain();
    }

    @Override
    public synchronized void hsync() throws IOException {
        checkOpen();
        stats.incrementCounter(StoreStatisticNames.OP_HSYNC);
        drain();
        try {
            io.flush();
        } catch (IOException e) {
            stats.incrementCounter(StreamStatisticNames.STREAM_WRITE_EXCEPTIONS);
            throw ErrorTranslation.translate(ctx, "hsync", path, e);
        }
    }

    /** Bytes of the file written by this stream's end, buffered ones included. */
    public synchronized long getPos() {
        return written + buffer.position();
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            if (failure == null) {
                drain();
            }
        } finally {
            closed = true;
            if (onClose != null) {
                onClose.accept(this);
            }
        }
    }

    @Override
    public boolean hasCapability(String capability) {
        switch (capability.toLowerCase(java.util.Locale.ROOT)) {
            case StreamCapabilities.HFLUSH:
            case StreamCapabilities.HSYNC:
            case StreamCapabilities.IOSTATISTICS:
                return true;
            default:
                return false;
        }
    }

    @Override
    public IOStatistics getIOStatistics() {
        return stats;
    }

    @Override
    public String toString() {
        return "SmartSsdOutputStream[" + path + ", object " + Long.toUnsignedString(oid)
                + ", pos " + (written + buffer.position()) + (closed ? ", closed]" : "]");
    }
}
