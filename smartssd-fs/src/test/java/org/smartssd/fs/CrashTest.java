package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.io.IOException;
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
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;

/**
 * SIGKILL of the daemon serving the drive, many times, at random points of a write stream.
 * The test keeps its own model of what was acknowledged durable (the length at each
 * returned {@code hsync}). After every restart, every file of every round so far holds at
 * least its acknowledged bytes, and whatever it holds is a prefix of what was written:
 * never garbage, never shorter than an acknowledgement.
 *
 * <p>Rounds: {@code -Dsmartssd.crash.rounds} (CI runs a few; the loop script more). The seed
 * is printed with every failure: {@code -Dsmartssd.crash.seed} replays a run's choices.
 */
class CrashTest {
    private static final int ROUNDS = Integer.getInteger("smartssd.crash.rounds", 6);
    private static final long SEED = Long.getLong("smartssd.crash.seed", System.nanoTime());
    private static final int MAX_FILE = 3 << 20;
    private static final Duration READY = Duration.ofSeconds(60);

    /** One file the writer made: its bytes, and how many of them an hsync acknowledged. */
    private static final class Written {
        final org.apache.hadoop.fs.Path path;
        final byte[] data;
        volatile int durable;

        Written(org.apache.hadoop.fs.Path path, long seed) {
            this.path = path;
            this.data = FsTestSupport.data(MAX_FILE, seed);
        }
    }

    @Test
    void everyHsyncedByteSurvivesManyKillsAtRandomPoints(@TempDir Path dir) throws Exception {
        Path img = dir.resolve("crash.img");
        Path sock = dir.resolve("crash.sock");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 0);
        Random random = new Random(SEED);
        List<Written> files = new ArrayList<>();
        Configuration conf = new Configuration();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        int killedMidStream = 0;
        try {
            for (int round = 0; round < ROUNDS; round++) {
                String at = "seed " + SEED + ", round " + round;
                Devd devd = Devd.start(img, sock, READY);
                conf.set("smartssd.device.crash.uri", devd.uri());
                FileSystem fs = FileSystem.newInstance(URI.create("smartssd://crash/"), conf);
                try {
                    verify(fs, files, at);
                    Semaphore steps = new Semaphore(0);
                    int killAfter = 1 + random.nextInt(40);
                    long writerSeed = random.nextLong();
                    int first = files.size();
                    for (int i = 0; i < 4; i++) {
                        files.add(new Written(new org.apache.hadoop.fs.Path(
                                "/r" + round + "/f" + i), writerSeed + i));
                    }
                    Future<?> writer = pool.submit(() -> {
                        try {
                            write(fs, files.subList(first, files.size()),
                                    new Random(writerSeed), steps);
                        } finally {
                            steps.release(1 << 20); // a writer that failed wakes the test
                        }
                        return null;
                    });
                    assertThat(steps.tryAcquire(killAfter, 120, TimeUnit.SECONDS)).as(
                            "%s: the writer's first %d steps within 120 s", at, killAfter).isTrue();
                    boolean midStream = !writer.isDone();
                    devd.kill();
                    if (midStream) {
                        killedMidStream++;
                    }
                    try {
                        writer.get(120, TimeUnit.SECONDS);
                    } catch (java.util.concurrent.ExecutionException expected) {
                        // the writer's call failed when the daemon died
                    }
                } finally {
                    closeQuietly(fs);
                }
            }
            Devd devd = Devd.start(img, sock, READY);
            conf.set("smartssd.device.crash.uri", devd.uri());
            try (devd; FileSystem fs = FileSystem.newInstance(URI.create("smartssd://crash/"),
                    conf)) {
                verify(fs, files, "seed " + SEED + ", after the last round");
            }
        } finally {
            pool.shutdownNow();
        }
        // The writer makes far more steps than the largest kill point: every kill lands
        // while it is still writing.
        assertThat(killedMidStream).as("seed %d: kills that landed mid-stream", SEED)
                .isEqualTo(ROUNDS);
    }

    /**
     * Four files written in chunks of up to 256 KiB, each chunk followed by an hsync one
     * time in three; a step is counted after each call returns. Runs until the daemon dies
     * (with every file full, it goes on calling hsync).
     */
    private static void write(FileSystem fs, List<Written> files, Random random,
                              Semaphore steps) throws IOException {
        List<FSDataOutputStream> out = new ArrayList<>();
        int[] written = new int[files.size()];
        for (Written w : files) {
            out.add(fs.create(w.path));
            steps.release();
        }
        for (;;) {
            int i = random.nextInt(files.size());
            Written w = files.get(i);
            int n = Math.min(1 + random.nextInt(256 << 10), MAX_FILE - written[i]);
            if (n > 0) {
                out.get(i).write(w.data, written[i], n);
                written[i] += n;
                steps.release();
            }
            if (n == 0 || random.nextInt(3) == 0) {
                out.get(i).hsync();
                w.durable = written[i];
                steps.release();
            }
        }
    }

    private static void verify(FileSystem fs, List<Written> files, String at) throws IOException {
        for (Written w : files) {
            byte[] got;
            try (FSDataInputStream in = fs.open(w.path)) {
                got = in.readAllBytes();
            } catch (FileNotFoundException absent) {
                assertThat(w.durable).as("%s: %s is gone with %d bytes acknowledged", at,
                        w.path, w.durable).isZero();
                continue;
            }
            assertThat(got.length).as("%s: length of %s", at, w.path)
                    .isGreaterThanOrEqualTo(w.durable).isLessThanOrEqualTo(MAX_FILE);
            assertThat(Arrays.mismatch(got, Arrays.copyOf(w.data, got.length)))
                    .as("%s: first wrong byte of %s (%d bytes, %d acknowledged)", at, w.path,
                            got.length, w.durable).isEqualTo(-1);
        }
    }

    private static void closeQuietly(FileSystem fs) {
        try {
            fs.close(); // its open streams cannot reach the killed daemon
        } catch (IOException expected) {
            // the daemon is gone
        }
    }
}
