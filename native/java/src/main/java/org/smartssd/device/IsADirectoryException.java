package org.smartssd.device;

/** A file operation named a directory (EISDIR / IS_DIR). */
public class IsADirectoryException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public IsADirectoryException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
