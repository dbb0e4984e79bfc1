package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;

/**
 * Positioned reads of one open file from 8 threads at once, in-process and over
 * smartssd-devd: each thread's commands are in the drive beside the others' (each under its
 * own tag), and every byte read is the file's, checked against the bytes written. Reads past
 * the end are short, as one thread's would be.
 */
@Tag("full") // many threads, many rounds; VectoredReadQueueTest stays in the fast tier
class ConcurrentPositionedReadTest {
    private static final Duration READY = Duration.ofSeconds(60);
    private static final int FILE = 3 * 1024 * 1024 + 777;
    private static final int THREADS = 8;
    private static final int READS = 150;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"emu", "unix"})
    void positionedReadsFromEightThreadsReturnTheFilesBytes(String transport) throws Exception {
        Path img = dir.resolve("p.img");
        SmartSsdDevice.formatEmulated(img, null, 64L << 20, 0);
        Devd devd = transport.equals("unix") ? Devd.start(img, dir.resolve("p.sock"), READY)
                : null;
        Configuration conf = new Configuration();
        conf.set("smartssd.device.p.uri", devd != null ? devd.uri() : "emu:" + img);
        byte[] want = FsTestSupport.data(FILE, 7);
        org.apache.hadoop.fs.Path f = new org.apache.hadoop.fs.Path("/p/data");
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (FileSystem fs = FileSystem.newInstance(URI.create("smartssd://p/"), conf)) {
            try (FSDataOutputStream out = fs.create(f)) {
                out.write(want);
            }
            try (FSDataInputStream in = fs.open(f)) {
                List<Future<Integer>> done = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    long seed = 1000 + t;
                    done.add(pool.submit(() -> readRandomly(in, want, seed)));
                }
                int bytes = 0;
                for (int t = 0; t < THREADS; t++) {
                    // bounded: a broken drive or daemon fails the test instead of hanging it
                    bytes += done.get(t).get(5, TimeUnit.MINUTES);
                }
                assertThat(bytes).as("bytes checked over all threads").isGreaterThan(FILE);
            }
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(1, TimeUnit.MINUTES))
                    .as("reader threads finished").isTrue();
            if (devd != null) {
                devd.close();
            }
        }
    }

    /** READS positioned reads at random places; \return the bytes checked. */
    private static int readRandomly(FSDataInputStream in, byte[] want, long seed)
            throws Exception {
        Random r = new Random(seed);
        int checked = 0;
        for (int i = 0; i < READS; i++) {
            int len = 1 + r.nextInt(96 * 1024);
            long pos = r.nextInt(FILE + 4096);   // some start or end past the file's end
            byte[] b = new byte[len];
            int n = in.read(pos, b, 0, len);
            int expect = (int) Math.max(0, Math.min(len, FILE - pos));
            if (expect == 0) {
                assertThat(n).as("read at %d, past the end", pos).isEqualTo(-1);
                continue;
            }
            assertThat(n).as("read of %d at %d", len, pos).isPositive().isLessThanOrEqualTo(expect);
            assertThat(Arrays.copyOf(b, n)).as("%d bytes at %d", n, pos)
                    .isEqualTo(Arrays.copyOfRange(want, (int) pos, (int) pos + n));
            checked += n;
            if (i % 4 == 0 && pos + len <= FILE) {
                in.readFully(pos, b, 0, len);
                assertThat(b).as("readFully of %d at %d", len, pos)
                        .isEqualTo(Arrays.copyOfRange(want, (int) pos, (int) pos + len));
                checked += len;
            }
        }
        return checked;
    }
}
