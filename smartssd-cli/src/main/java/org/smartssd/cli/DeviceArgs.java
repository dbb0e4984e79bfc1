package org.smartssd.cli;

import java.io.IOException;

import org.smartssd.device.SmartSsdDevice;

/** Opening the drive a subcommand names. */
final class DeviceArgs {
    private DeviceArgs() {
    }

    static SmartSsdDevice open(String uri) throws IOException {
        if (!(uri.startsWith("emu:") || uri.startsWith("unix:") || uri.startsWith("sg:"))) {
            throw new IllegalArgumentException("'" + uri + "' is not a drive URI: use "
                    + "emu:/path/dev0.img, unix:/path/dev0.sock or sg:/dev/sdX");
        }
        return SmartSsdDevice.open(uri);
    }
}
