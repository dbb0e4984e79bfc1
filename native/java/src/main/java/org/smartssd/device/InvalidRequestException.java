package org.smartssd.device;

/** A command argument is out of range for the drive (EINVAL / BAD_FIELD). */
public class InvalidRequestException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public InvalidRequestException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
