package org.smartssd.device;

/**
 * No room on the drive (ENOSPC, DRIVE_FULL or TOO_MANY_OBJECTS; from the solid-state cache's
 * commands: the cache is full of dirty blocks). smartssd-fs turns it into Hadoop's
 * {@code DiskOutOfSpaceException}.
 */
public class DriveFullException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public DriveFullException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
