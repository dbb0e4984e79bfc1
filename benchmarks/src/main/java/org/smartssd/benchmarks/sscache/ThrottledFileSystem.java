package org.smartssd.benchmarks.sscache;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * {@code throttled:///path}: the local file system with its reads paced to
 * {@code throttled.read.bytes.per.s} (one serial channel for every stream of the instance):
 * a slow backing store with a stated rate. Register with {@code fs.throttled.impl}. The
 * bytes it served are counted ({@link #bytesRead()}), so a modelled time is bytes / rate.
 */
public class ThrottledFileSystem extends RawLocalFileSystem {
    private static final URI NAME = URI.create("throttled:///");
    public static final String RATE = "throttled.read.bytes.per.s";
    private double rate;
    private final AtomicLong served = new AtomicLong();
    private long busyUntilNs;

    public ThrottledFileSystem() {
    }

    @Override
    public URI getUri() {
        return NAME;
    }

    @Override
    public String getScheme() {
        return "throttled";
    }

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        rate = conf.getDouble(RATE, 0);
        if (!(rate > 0)) {
            throw new IllegalArgumentException(RATE + " must be a positive rate in bytes/s, got "
                    + conf.get(RATE));
        }
    }

    /** Bytes read through this instance. */
    public long bytesRead() {
        return served.get();
    }

    public double rate() {
        return rate;
    }

    /**
     * Holds the caller for {@code n} bytes' time at the rate after the store's last
     * transfer ended: one serial channel, so idle time earns no credit and the wall clock
     * of a phase is its bytes / rate plus whatever else it did.
     */
    private void pace(long n) throws IOException {
        served.addAndGet(n);
        long endNs;
        synchronized (this) {
            long now = System.nanoTime();
            endNs = Math.max(now, busyUntilNs) + (long) (n / rate * 1e9);
            busyUntilNs = endNs;
        }
        long waitNs = endNs - System.nanoTime();
        if (waitNs > 0) {
            try {
                Thread.sleep(waitNs / 1_000_000, (int) (waitNs % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("throttled read interrupted");
            }
        }
    }

    /** Starts counting the bytes of a new phase. */
    public void resetBucket() {
        served.set(0);
    }

    /** RawLocalFileSystem's statuses load their permissions from a file: URI; under another
     *  scheme they cannot, so this store reports plain ones (no owner, default permission). */
    private static FileStatus plain(FileStatus s) {
        return new FileStatus(s.getLen(), s.isDirectory(), s.getReplication(), s.getBlockSize(),
                s.getModificationTime(), s.getAccessTime(),
                s.isDirectory() ? FsPermission.getDirDefault() : FsPermission.getFileDefault(),
                "", "", s.getPath());
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
        return plain(super.getFileStatus(f));
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
        FileStatus[] all = super.listStatus(f);
        for (int i = 0; i < all.length; i++) {
            all[i] = plain(all[i]);
        }
        return all;
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        FSDataInputStream real = super.open(f, bufferSize);
        return new FSDataInputStream(new FSInputStream() {
            @Override
            public void seek(long pos) throws IOException {
                real.seek(pos);
            }

            @Override
            public long getPos() throws IOException {
                return real.getPos();
            }

            @Override
            public boolean seekToNewSource(long targetPos) {
                return false;
            }

            @Override
            public int read() throws IOException {
                int b = real.read();
                if (b >= 0) {
                    pace(1);
                }
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = real.read(b, off, len);
                if (n > 0) {
                    pace(n);
                }
                return n;
            }

            @Override
            public int read(long position, byte[] b, int off, int len) throws IOException {
                int n = real.read(position, b, off, len);
                if (n > 0) {
                    pace(n);
                }
                return n;
            }

            @Override
            public void readFully(long position, byte[] b, int off, int len) throws IOException {
                int done = 0;
                while (done < len) {
                    int n = read(position + done, b, off + done, len - done);
                    if (n < 0) {
                        throw new EOFException("end of " + f + " at " + (position + done));
                    }
                    done += n;
                }
            }

            @Override
            public void close() throws IOException {
                real.close();
            }
        });
    }
}
