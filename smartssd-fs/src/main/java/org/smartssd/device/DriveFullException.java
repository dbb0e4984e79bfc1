package org.smartssd.device;

/** No space left on the drive (ENOSPC / DRIVE_FULL); see also {@link TooManyObjectsException}. */
public class DriveFullException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public DriveFullException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
