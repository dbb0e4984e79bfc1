package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;

/**
 * hsync survives SIGKILL of the daemon serving the drive; what was not synced is absent or
 * a prefix of what was written, never garbage.
 */
class CrashTest {
    @Test
    void hsyncedFileIsCompleteAfterTheDaemonIsKilled(@TempDir Path dir) throws Exception {
        Path img = dir.resolve("crash.img");
        Path sock = dir.resolve("crash.sock");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 0);
        byte[] synced = FsTestSupport.data((3 << 20) + 12_345, 11);
        byte[] unsynced = FsTestSupport.data((2 << 20) + 777, 12);
        Configuration conf = new Configuration();

        Devd devd = Devd.start(img, sock, Duration.ofSeconds(30));
        conf.set("smartssd.device.crash.uri", devd.uri());
        FileSystem fs = FileSystem.newInstance(URI.create("smartssd://crash/"), conf);
        try {
            fs.mkdirs(new org.apache.hadoop.fs.Path("/logs"));
            FSDataOutputStream a = fs.create(new org.apache.hadoop.fs.Path("/logs/synced"));
            a.write(synced);
            a.hsync(); // left open: hsync alone must be enough
            FSDataOutputStream b = fs.create(new org.apache.hadoop.fs.Path("/logs/unsynced"));
            b.write(unsynced, 0, 1_500_000);
            b.hflush(); // on the drive, visible, not durable
            b.write(unsynced, 1_500_000, unsynced.length - 1_500_000); // partly buffered
            devd.kill();
        } finally {
            try {
                fs.close(); // the open streams cannot reach the killed daemon
            } catch (IOException expected) {
                // the daemon is gone
            }
        }

        Files.deleteIfExists(sock); // a killed daemon leaves its socket file behind
        try (Devd again = Devd.start(img, sock, Duration.ofSeconds(30));
             FileSystem fs2 = FileSystem.newInstance(URI.create("smartssd://crash/"), conf)) {
            try (FSDataInputStream in = fs2.open(new org.apache.hadoop.fs.Path("/logs/synced"))) {
                assertThat(in.readAllBytes()).isEqualTo(synced);
            }
            byte[] got;
            try (FSDataInputStream in = fs2.open(
                    new org.apache.hadoop.fs.Path("/logs/unsynced"))) {
                got = in.readAllBytes();
            } catch (FileNotFoundException absent) {
                got = null;
            }
            if (got != null) {
                assertThat(got.length).isLessThanOrEqualTo(unsynced.length);
                assertThat(got).isEqualTo(Arrays.copyOf(unsynced, got.length));
            }
        }
    }
}
