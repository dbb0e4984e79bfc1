package org.smartssd.fs;

import org.apache.hadoop.util.DiskChecker;

/**
 * The drive has no room for what was asked: flash space or its object table is used up.
 * A {@link DiskChecker.DiskOutOfSpaceException}, so Hadoop code that handles a full disk
 * handles this too; it names the drive and the path.
 */
public class SmartSsdDriveFullException extends DiskChecker.DiskOutOfSpaceException {
    private static final long serialVersionUID = 1L;

    private final String drive;
    private final String path;

    public SmartSsdDriveFullException(String drive, String path, String detail,
                                      Throwable cause) {
        super(path + ": drive " + drive + " is full: " + detail);
        this.drive = drive;
        this.path = path;
        initCause(cause);
    }

    /** The device name and its drive URI. */
    public String drive() {
        return drive;
    }

    public String path() {
        return path;
    }
}
