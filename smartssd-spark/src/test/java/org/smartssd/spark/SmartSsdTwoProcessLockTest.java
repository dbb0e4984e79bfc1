package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;

/**
 * The table lock across processes: a writer in another JVM holds it on a drive served by
 * smartssd-devd ({@link OtherProcessLock}), and an append of this Spark application waits for
 * it, fails naming that process when its wait runs out, and goes through once it is released.
 * A lock in this JVM alone would let the append interleave with the other writer's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SmartSsdTwoProcessLockTest {
    static final String DRIVE = "twoproc";
    /** A hang detector, not a speed goal. */
    static final Duration LIMIT = Duration.ofMinutes(5);

    @TempDir
    static Path dir;
    Devd devd;
    SparkSession spark;
    ExecutorService pool = Executors.newSingleThreadExecutor();

    @BeforeAll
    void startDrive() throws Exception {
        Path image = dir.resolve("twoproc.img");
        SmartSsdDevice.formatEmulated(image, null, 64L << 20, 0);
        devd = Devd.start(image, dir.resolve("twoproc.sock"), Duration.ofSeconds(30));
        spark = SparkDrive.get().spark;
        spark.sparkContext().hadoopConfiguration().set("smartssd.device." + DRIVE + ".uri",
                devd.uri());
    }

    @AfterAll
    void stopDrive() throws Exception {
        pool.shutdownNow();
        if (devd != null) {
            devd.close();
        }
    }

    private void append(String path, long n, int b, String waitMs) {
        spark.range(0, n).selectExpr("cast(id as int) a", "cast(" + b + " as int) b").write()
                .format("smartssd").mode("append").option("lockWaitMillis", waitMs).save(path);
    }

    private long rows(String path) {
        return spark.read().format("smartssd").load(path).count();
    }

    @Test
    void anAppendWaitsForTheLockOfAWriterInAnotherProcess() throws Exception {
        String path = "smartssd://" + DRIVE + "/shared/t";
        spark.range(0, 1000).selectExpr("cast(id as int) a", "cast(-1 as int) b").write()
                .format("smartssd").save(path);

        Path err = dir.resolve("other.err");
        Process p = new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                "-cp", System.getProperty("java.class.path"), OtherProcessLock.class.getName(),
                DRIVE, devd.uri(), path)).redirectError(err.toFile()).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8));
            String locked = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).get(LIMIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(locked).as("the other process's first line; its stderr:%n%s",
                    Files.readString(err)).startsWith("LOCKED ");
            String pid = locked.substring("LOCKED ".length());

            assertThatThrownBy(() -> append(path, 500, 0, "300"))
                    .hasStackTraceContaining("is being written by another writer (owner=" + pid
                            + "@")
                    .hasStackTraceContaining("waited 300 ms");
            assertThat(rows(path)).isEqualTo(1000);

            Future<?> waiting = pool.submit(() -> append(path, 500, 0, "600000"));
            OutputStream in = p.getOutputStream();
            in.write("release\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            assertThat(p.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS))
                    .as("the other process exits once told to release").isTrue();
            assertThat(p.exitValue()).as("its stderr:%n%s", Files.readString(err)).isZero();
            assertThat(out.readLine()).isEqualTo("RELEASED");
            waiting.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
        } finally {
            p.destroyForcibly();
        }
        assertThat(rows(path)).isEqualTo(1500);
    }
}
