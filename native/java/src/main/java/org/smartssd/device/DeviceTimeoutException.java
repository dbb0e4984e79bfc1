package org.smartssd.device;

/** A command or a wait on the drive did not finish in the time allowed (ETIMEDOUT). */
public class DeviceTimeoutException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public DeviceTimeoutException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
