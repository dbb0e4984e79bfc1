package org.smartssd.device;

/** A non-recursive remove of a directory that has children (ENOTEMPTY / NOT_EMPTY). */
public class DirectoryNotEmptyException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public DirectoryNotEmptyException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
