package org.smartssd.device;

import java.io.FileNotFoundException;

/** The path or object id names nothing on the drive (ENOENT / NO_SUCH_OBJECT). */
public class NoSuchObjectException extends FileNotFoundException implements SmartSsdError {
    private static final long serialVersionUID = 1L;

    private final DriveStatus status;

    public NoSuchObjectException(String message, int errno, int reasonCode) {
        super(message);
        this.status = new DriveStatus(errno, reasonCode);
    }

    @Override
    public DriveStatus status() {
        return status;
    }
}
