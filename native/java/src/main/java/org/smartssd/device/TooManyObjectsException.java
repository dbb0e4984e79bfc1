package org.smartssd.device;

/** The drive's object table is full although flash space may remain (TOO_MANY_OBJECTS). */
public class TooManyObjectsException extends DriveFullException {
    private static final long serialVersionUID = 1L;

    public TooManyObjectsException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
