package org.smartssd.device;

import java.nio.file.Path;
import java.time.Duration;

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

    @Override
    boolean hasModel() {
        return true;   // smartssd-devd serves the model counters (PROTOCOL.md 7a)
    }
}
