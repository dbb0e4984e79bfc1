package org.smartssd.device;

import java.io.IOException;

/** The object has no attribute of that name (ENODATA / NO_SUCH_ATTR). */
public class NoSuchAttributeException extends IOException implements SmartSsdError {
    private static final long serialVersionUID = 1L;

    private final DriveStatus status;

    public NoSuchAttributeException(String message, int errno, int reasonCode) {
        super(message);
        this.status = new DriveStatus(errno, reasonCode);
    }

    @Override
    public DriveStatus status() {
        return status;
    }
}
