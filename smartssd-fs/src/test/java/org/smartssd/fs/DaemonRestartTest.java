package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TransportClosedException;

/**
 * A FileSystem instance outlives a restart of the daemon serving its drive: the call in
 * flight fails with a retryable TransportClosedException, and the next call reconnects.
 */
class DaemonRestartTest {
    private static final Duration READY = Duration.ofSeconds(60);

    @Test
    void theSameFileSystemGoesOnAfterTheDaemonRestarts(@TempDir Path dir) throws Exception {
        Path img = dir.resolve("r.img");
        Path sock = dir.resolve("r.sock");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 0);
        byte[] before = FsTestSupport.data(700_000, 1);
        byte[] after = FsTestSupport.data(300_000, 2);
        Configuration conf = new Configuration();
        Devd devd = Devd.start(img, sock, READY);
        conf.set("smartssd.device.r.uri", devd.uri());
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (FileSystem fs = FileSystem.newInstance(URI.create("smartssd://r/"), conf)) {
            org.apache.hadoop.fs.Path a = new org.apache.hadoop.fs.Path("/d/before");
            try (FSDataOutputStream out = fs.create(a)) {
                out.write(before);
                out.hsync();
            }

            // killed while idle: the next call is not lost, it reconnects
            devd.kill();
            devd = Devd.start(img, sock, READY);
            assertThat(read(fs, a)).isEqualTo(before);

            // killed under a streaming writer: that call fails, clearly and retryably
            CountDownLatch streaming = new CountDownLatch(1);
            Future<?> writer = pool.submit(() -> {
                try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path("/d/s"))) {
                    byte[] chunk = new byte[1 << 20];
                    for (;;) {
                        out.write(chunk);
                        out.hflush();
                        streaming.countDown();
                    }
                }
            });
            assertThat(streaming.await(60, TimeUnit.SECONDS)).isTrue();
            devd.kill();
            assertThatThrownBy(() -> writer.get(60, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(IOException.class)
                    .satisfies(e -> assertThat(causeChain(e)).contains(
                            TransportClosedException.class.getSimpleName()));

            // with nobody serving, a call fails at once and says so
            assertThatThrownBy(() -> fs.getFileStatus(a))
                    .isInstanceOf(TransportClosedException.class)
                    .hasMessageContaining("not serving")
                    .satisfies(e -> assertThat(((TransportClosedException) e).mayHaveRun())
                            .as("a call that was never sent").isFalse());

            devd = Devd.start(img, sock, READY);
            org.apache.hadoop.fs.Path b = new org.apache.hadoop.fs.Path("/d/after");
            try (FSDataOutputStream out = fs.create(b)) {
                out.write(after);
            }
            assertThat(read(fs, b)).isEqualTo(after);
            assertThat(read(fs, a)).isEqualTo(before);
            // what an operator sees (the drive's metrics source): two restarts, each a
            // reconnect, and the two calls that failed while the daemon was down
            Map<String, Long> seen = DriveSources.collect(devd.uri());
            assertThat(seen.get("drive_reconnects")).isEqualTo(2);
            assertThat(seen.get("drive_errors")).isGreaterThanOrEqualTo(2);
        } finally {
            pool.shutdownNow();
            devd.close();
        }
    }

    private static byte[] read(FileSystem fs, org.apache.hadoop.fs.Path p) throws IOException {
        try (FSDataInputStream in = fs.open(p)) {
            return in.readAllBytes();
        }
    }

    private static String causeChain(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage())
                    .append(" <- ");
        }
        return b.toString();
    }
}
