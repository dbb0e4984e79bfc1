package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A daemon that dies under a client fails its calls with TransportClosedException, fast. */
class TransportClosedTest {
    @TempDir
    Path dir;

    @Test
    void killingTheDaemonMidCommandFailsTheCallInsteadOfHanging() throws Exception {
        Path image = TestDrives.image(dir);
        Devd devd = Devd.start(image, dir.resolve("d.sock"), Duration.ofSeconds(30));
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (SmartSsdDevice dev = SmartSsdDevice.open(devd.uri())) {
            long oid = dev.create("/stream", ObjectType.FILE);
            CountDownLatch writing = new CountDownLatch(1);
            Future<?> writer = pool.submit(() -> {
                ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
                long off = 0;
                for (;;) {
                    dev.write(oid, off, chunk.clear(), false);
                    off += chunk.capacity();
                    writing.countDown();
                    if (off > (100L << 20)) {
                        off = 0;
                    }
                }
            });
            assertThat(writing.await(30, TimeUnit.SECONDS)).isTrue();
            devd.kill();
            Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                try {
                    writer.get();
                    return null;
                } catch (java.util.concurrent.ExecutionException e) {
                    return e.getCause();
                }
            });
            assertThat(failure).isInstanceOf(TransportClosedException.class)
                    .hasMessageContaining(devd.uri());
            assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                    assertThatThrownBy(dev::info).isInstanceOf(TransportClosedException.class));
        } finally {
            pool.shutdownNow();
            devd.close();
        }
    }

    @Test
    void aTaskletWaitEndsWhenTheDaemonDies() throws Exception {
        Path image = TestDrives.image(dir);
        Devd devd = Devd.start(image, dir.resolve("w.sock"), Duration.ofSeconds(30));
        try (SmartSsdDevice dev = SmartSsdDevice.open(devd.uri())) {
            byte[] text = TestDrives.lines(200_000, 3).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            long in = dev.create("/t", ObjectType.FILE);
            dev.write(in, 0, ByteBuffer.wrap(text), false);
            long out = dev.createOutput("/o", true);
            long inst = dev.createTasklet(new TaskletSpec(TestDrives.GREP, RecordLayout.lines(4096),
                    TestDrives.grepParams(false, "x"), 4096, 0), out);
            devd.kill();
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                assertThatThrownBy(() -> {
                    dev.execute(inst, java.util.List.of(InputRange.whole(in)));
                    dev.await(inst, Duration.ofMinutes(5), null);
                }).isInstanceOf(TransportClosedException.class)
                        .hasMessageContaining("ENOTCONN");
            });
        } finally {
            devd.close();
        }
    }

    @Test
    void nothingListeningIsATransportError() {
        assertThatThrownBy(() -> SmartSsdDevice.open("unix:" + dir.resolve("nobody.sock")))
                .isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("nobody.sock");
    }
}
