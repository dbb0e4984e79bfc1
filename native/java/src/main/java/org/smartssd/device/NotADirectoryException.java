package org.smartssd.device;

import java.nio.file.NotDirectoryException;

/** A path component that must be a directory is not one (ENOTDIR / NOT_DIR). */
public class NotADirectoryException extends NotDirectoryException implements SmartSsdError {
    private static final long serialVersionUID = 1L;

    private final DriveStatus status;

    /** {@code message} is the whole message (Java's "file" argument). */
    public NotADirectoryException(String message, int errno, int reasonCode) {
        super(message);
        this.status = new DriveStatus(errno, reasonCode);
    }

    @Override
    public DriveStatus status() {
        return status;
    }
}
