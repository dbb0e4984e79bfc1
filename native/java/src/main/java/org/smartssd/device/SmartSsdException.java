package org.smartssd.device;

import java.io.IOException;

/**
 * An error the drive or the host link reported, where no Java type fits. Subclasses say
 * which; {@link Errors#translate} is the only place that chooses among them.
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
