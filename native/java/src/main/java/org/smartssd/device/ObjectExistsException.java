package org.smartssd.device;

import java.nio.file.FileAlreadyExistsException;

/** The name already exists (EEXIST / EXISTS). */
public class ObjectExistsException extends FileAlreadyExistsException implements SmartSsdError {
    private static final long serialVersionUID = 1L;

    private final DriveStatus status;

    /** {@code message} is the whole message (Java's "file" with no other file or reason). */
    public ObjectExistsException(String message, int errno, int reasonCode) {
        super(message);
        this.status = new DriveStatus(errno, reasonCode);
    }

    @Override
    public DriveStatus status() {
        return status;
    }
}
