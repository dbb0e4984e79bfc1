package org.smartssd.device;

/** A path component is longer than the drive accepts (ENAMETOOLONG / NAME_TOO_LONG). */
public class NameTooLongException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public NameTooLongException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
