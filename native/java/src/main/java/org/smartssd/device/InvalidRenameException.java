package org.smartssd.device;

/** The rename would move a directory into itself (RENAME_INTO_SELF). */
public class InvalidRenameException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public InvalidRenameException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
