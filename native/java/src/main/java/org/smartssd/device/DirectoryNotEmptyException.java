package org.smartssd.device;

/** A non-recursive remove of a directory that has children (ENOTEMPTY / NOT_EMPTY). */
public class DirectoryNotEmptyException extends java.nio.file.DirectoryNotEmptyException
        implements SmartSsdError {
    private static final long serialVersionUID = 1L;

    private final DriveStatus status;

    /** {@code message} is the whole message (Java's "directory" argument). */
    public DirectoryNotEmptyException(String message, int errno, int reasonCode) {
        super(message);
        this.status = new DriveStatus(errno, reasonCode);
    }

    @Override
    public DriveStatus status() {
        return status;
    }
}
