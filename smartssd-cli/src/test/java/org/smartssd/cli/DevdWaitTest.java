package org.smartssd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.SmartSsdDevice;

/** {@code smartssd devd --wait}: returns once the daemon serves, and says where. */
class DevdWaitTest {
    @TempDir
    Path dir;

    @Test
    void waitReturnsOnceTheDaemonServesAndPrintsItsUriAndPid() throws Exception {
        Path image = dir.resolve("dev0.img");
        Path sock = dir.resolve("dev0.sock");
        SmartSsdDevice.formatEmulated(image, null, 256L << 20, 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SmartSsdCli.run(new String[] {"devd", "--wait", "--image", image.toString(),
            "--socket", sock.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).as("stderr: %s", err).isZero();
        Matcher m = Pattern.compile("^unix:(\\S+) pid (\\d+)$", Pattern.MULTILINE)
                .matcher(out.toString(StandardCharsets.UTF_8));
        assertThat(m.find()).as("output: %s", out).isTrue();
        assertThat(m.group(1)).isEqualTo(sock.toString());
        ProcessHandle daemon = ProcessHandle.of(Long.parseLong(m.group(2))).orElseThrow();
        try (SmartSsdDevice dev = SmartSsdDevice.open("unix:" + sock)) {
            assertThat(dev.info().capacityBytes()).isPositive();
        } finally {
            daemon.destroy();
            daemon.onExit().get(30, TimeUnit.SECONDS);
        }
    }
}
