package org.smartssd.device;

/**
 * No space left on the drive (ENOSPC / DRIVE_FULL): the no-space {@link java.io.IOException}
 * (smartssd-fs turns it into Hadoop's {@code DiskOutOfSpaceException}); see also
 * {@link TooManyObjectsException}.
 */
public class DriveFullException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public DriveFullException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
