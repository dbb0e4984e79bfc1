package org.smartssd.device;

/** A path component that must be a directory is not one (ENOTDIR / NOT_DIR). */
public class NotADirectoryException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public NotADirectoryException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
