package org.smartssd.device;

/** The path is malformed: not absolute, empty component, bad characters (BAD_PATH). */
public class InvalidPathException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public InvalidPathException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
