package org.smartssd.fs.sscache;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * {@code faulty:///path}: the local file system, whose output streams fail part-way while
 * {@link #FAILING} is set: a backing store that goes down in the middle of a write-back.
 * Register with {@code fs.faulty.impl}.
 */
public class FaultInjectingFileSystem extends RawLocalFileSystem {
    private static final URI NAME = URI.create("faulty:///");
    /** While set, every output stream throws once it has taken {@link #FAIL_AFTER} bytes. */
    static final AtomicInteger FAILING = new AtomicInteger();
    static final long FAIL_AFTER = 64 * 1024;
    /** Writes refused so far. */
    static final AtomicLong REFUSED = new AtomicLong();

    public FaultInjectingFileSystem() {
    }

    @Override
    public URI getUri() {
        return NAME;
    }

    @Override
    public String getScheme() {
        return "faulty";
    }

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite,
                                     int bufferSize, short replication, long blockSize,
                                     Progressable progress) throws IOException {
        return failing(f, super.create(f, permission, overwrite, bufferSize, replication,
                blockSize, progress));
    }

    @Override
    public FSDataOutputStream create(Path f, boolean overwrite, int bufferSize,
                                     short replication, long blockSize, Progressable progress)
            throws IOException {
        return failing(f, super.create(f, overwrite, bufferSize, replication, blockSize,
                progress));
    }

    private FSDataOutputStream failing(Path f, FSDataOutputStream real) throws IOException {
        return new FSDataOutputStream(new OutputStream() {
            private long taken;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (FAILING.get() > 0 && taken + len > FAIL_AFTER) {
                    REFUSED.incrementAndGet();
                    throw new IOException("injected fault: the backing store went down after "
                            + taken + " bytes of " + f);
                }
                real.write(b, off, len);
                taken += len;
            }

            @Override
            public void close() throws IOException {
                real.close();
            }
        }, statistics);
    }
}
