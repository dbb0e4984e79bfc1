package org.smartssd.device;

import java.nio.file.Path;

/** The contract in-process: emu: */
class EmuDeviceTest extends DeviceContract {
    @Override
    String uriFor(Path image) {
        return "emu:" + image;
    }

    @Override
    String transport() {
        return "emu";
    }

    @Override
    boolean hasModel() {
        return true;
    }
}
