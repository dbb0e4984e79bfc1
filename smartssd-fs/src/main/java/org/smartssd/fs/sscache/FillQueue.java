package org.smartssd.fs.sscache;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.smartssd.fs.DriveLog;

/**
 * Clean fills off the read path (issue #38 §1): a reader that read missed blocks from the
 * backing store hands them here and returns them to its caller at once; one thread per
 * file system writes them into the drive's cache, in the order queued (so a later fill of
 * an address lands after an earlier one).
 *
 * <p>Bounded: at most {@code capacityBytes} of fills wait. A reader that finds no room
 * waits for it (back-pressure: the drive's fill rate then paces the scan), at most
 * {@code waitMs}; past that the fill is dropped, counted ({@link CacheStatistics#FILLS_DROPPED})
 * and logged. A fill the drive fails is a missed cache insert, never the reader's error:
 * counted ({@link CacheStatistics#FILLS_FAILED}) and logged. Nothing is dropped silently.
 * {@code capacityBytes} 0: every fill is made by the reader before it returns (as before
 * the queue).
 *
 * <p>A stream's close waits for the fills it queued ({@link #awaitDone}), so a file read
 * and closed is cached (or its failed fills counted) before the next open: a later open or
 * an in-drive scan of it finds what the read brought in.
 */
final class FillQueue implements Closeable {
    /** Blocks [first, first + count) of a file version, block k's payload at k * payload. */
    record Fill(FileVersion version, byte[] digest, long first, int count, byte[] data) {
    }

    private final BlockCacheIo io;
    private final IOStatisticsStore stats;
    private final long capacityBytes;
    private final long waitMs;
    private final ArrayDeque<Fill> queue = new ArrayDeque<>();
    private final Thread filler;
    private long queuedBytes;
    private boolean closed;
    /** Fills are numbered as queued and made in that order: done up to here. */
    private long queuedSeq;
    private long doneSeq;

    FillQueue(BlockCacheIo io, IOStatisticsStore stats, long capacityBytes, long waitMs,
              String name) {
        if (capacityBytes < 0 || waitMs < 0) {
            throw new IllegalArgumentException("fill queue of " + capacityBytes
                    + " bytes, wait " + waitMs + " ms: neither may be negative");
        }
        this.io = io;
        this.stats = stats;
        this.capacityBytes = capacityBytes;
        this.waitMs = waitMs;
        if (capacityBytes == 0) {
            filler = null;
            return;
        }
        filler = new Thread(this::run, "sscache-fill-" + name);
        filler.setDaemon(true);
        filler.start();
    }

    /**
     * Queues a fill, waiting for room while the queue holds {@code capacityBytes}; made at
     * once when there is no queue. A fill larger than the whole queue waits for it to drain.
     * @return the fill's number for {@link #awaitDone}; 0 when nothing is left to wait for
     */
    long submit(Fill f) throws InterruptedIOException {
        if (filler == null) {
            fill(f);
            return 0;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        synchronized (this) {
            while (!closed && queuedBytes > 0 && queuedBytes + f.data().length > capacityBytes) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    stats.incrementCounter(CacheStatistics.FILLS_DROPPED);
                    DriveLog.of(FillQueue.class, io.cache().drive()).warn(
                            "{}: blocks {}..{} not cached: the fill queue stayed full ({} bytes) "
                                    + "for {} ms", f.version().pathKey(), f.first(),
                            f.first() + f.count() - 1, queuedBytes, waitMs);
                    return 0;
                }
                waitFor(left);
            }
            if (closed) {
                stats.incrementCounter(CacheStatistics.FILLS_DROPPED);
                return 0;
            }
            queue.addLast(f);
            queuedBytes += f.data().length;
            notifyAll();
            return ++queuedSeq;
        }
    }

    /**
     * Waits until fill {@code seq} and every one queued before it are made (or failed),
     * at most {@code timeoutMs}.
     * @throws IOException naming what is still queued when the time is up
     */
    void awaitDone(long seq, long timeoutMs) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        synchronized (this) {
            while (doneSeq < seq) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IOException("the cache fill queue of " + io.cache().drive()
                            + " still holds " + (queuedSeq - doneSeq) + " fills ("
                            + queuedBytes + " bytes) after " + timeoutMs + " ms");
                }
                waitFor(left);
            }
        }
    }

    /** How long a reader waits for room, and a closing stream for its fills. */
    long waitMs() {
        return waitMs;
    }

    /**
     * Waits until every fill queued so far is made (or dropped), at most {@code timeoutMs}.
     * @throws IOException naming what is still queued when the time is up
     */
    void drain(long timeoutMs) throws IOException {
        long last;
        synchronized (this) {
            last = queuedSeq;
        }
        awaitDone(last, timeoutMs);
    }

    /** Close waits at least this long for the queued fills (fill.wait.ms may be 0). */
    private static final long CLOSE_WAIT_MIN_MS = 60_000;

    /** Makes what is queued, then stops the thread; bounded, past that it says so. */
    @Override
    public void close() throws IOException {
        if (filler == null) {
            return;
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            notifyAll();
        }
        long bound = Math.max(waitMs, CLOSE_WAIT_MIN_MS);
        try {
            filler.join(bound);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the cache fills of "
                    + io.cache().drive() + " were made");
        }
        if (filler.isAlive()) {
            long left;
            synchronized (this) {
                left = queuedSeq - doneSeq;
            }
            throw new IOException("the cache fill queue of " + io.cache().drive()
                    + " still made fills " + bound + " ms after close; " + left
                    + " were left (their blocks stay uncached)");
        }
    }

    private void waitFor(long nanos) throws InterruptedIOException {
        try {
            TimeUnit.NANOSECONDS.timedWait(this, nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for the cache fill queue of "
                    + io.cache().drive());
        }
    }

    private void run() {
        for (;;) {
            Fill f;
            synchronized (this) {
                while (queue.isEmpty() && !closed) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        // only close() stops the filler, once the queue is empty
                    }
                }
                if (queue.isEmpty()) {
                    return;
                }
                f = queue.removeFirst();
            }
            try {
                fill(f);
            } finally {
                synchronized (this) {
                    queuedBytes -= f.data().length;
                    doneSeq++;
                    notifyAll();
                }
            }
        }
    }

    private void fill(Fill f) {
        try {
            io.fillClean(f.version(), f.digest(), f.first(), f.count(), f.data(),
                    f.data().length);
        } catch (IOException | RuntimeException e) {
            stats.incrementCounter(CacheStatistics.FILLS_FAILED);
            DriveLog.of(FillQueue.class, io.cache().drive()).warn(
                    "{}: caching blocks {}..{} failed ({}); they stay uncached",
                    f.version().pathKey(), f.first(), f.first() + f.count() - 1, e.toString());
        }
    }
}
