package org.smartssd.device;

import java.io.IOException;

/**
 * An error the drive or the host link reported. {@link #reason()} says which, in the drive's
 * terms ({@link Reason}), and {@link #errno()} in Linux's; callers test those rather than a
 * type. Subclasses exist only where a caller handles a kind of error its own way (a full
 * drive, a closed link, a failed tasklet); where Java has a type of its own (no such file,
 * already exists, not a directory, directory not empty, access denied) the exception is that
 * type and implements {@link SmartSsdError}. {@link Errors#translate} is the only place that
 * chooses among them.
 */
public class SmartSsdException extends IOException implements SmartSsdError {
    private static final long serialVersionUID = 1L;

    private final DriveStatus status;

    public SmartSsdException(String message, int errno, int reasonCode) {
        super(message);
        this.status = new DriveStatus(errno, reasonCode);
    }

    @Override
    public DriveStatus status() {
        return status;
    }
}
