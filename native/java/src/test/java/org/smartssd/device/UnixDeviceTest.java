package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The contract through smartssd-devd's socket: unix: */
class UnixDeviceTest extends DeviceContract {
    private Devd devd;

    @Override
    String uriFor(Path image) throws Exception {
        devd = Devd.start(image, image.resolveSibling("dev0.sock"), Duration.ofSeconds(30));
        return devd.uri();
    }

    @Override
    String transport() {
        return "unix";
    }

    @Override
    void stopTransport() throws Exception {
        if (devd != null) {
            devd.close();
        }
    }

    @Test
    void aDaemonRestartIsCountedAsAReconnect() throws Exception {
        Path other = Files.createDirectory(dir.resolve("restart"));
        Path img = TestDrives.image(other);
        Path sock = other.resolve("r.sock");
        Devd first = Devd.start(img, sock, Duration.ofSeconds(30));
        try (SmartSsdDevice d = SmartSsdDevice.open(first.uri())) {
            assertThat(d.info().capacityBytes()).isPositive();
            assertThat(d.statistics().reconnects()).isZero();
            first.kill();
            try (Devd second = Devd.start(img, sock, Duration.ofSeconds(30))) {
                assertThat(d.info().capacityBytes()).as("the call after the restart")
                        .isPositive();
                ClientStatistics s = d.statistics();
                assertThat(s.reconnects()).isEqualTo(1);
                assertThat(s.errors()).as("an idle link's reconnect fails no call").isZero();
            }
        } finally {
            first.close();
        }
    }

    @Override
    boolean hasModel() {
        return true;   // smartssd-devd serves the model counters (PROTOCOL.md 7a)
    }
}
