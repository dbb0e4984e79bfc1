package org.smartssd.device;

import java.io.IOException;

/**
 * An error the drive or the host link reported. Subclasses say which; {@link Errors#translate}
 * is the only place that chooses among them.
 */
public class SmartSsdException extends IOException implements SmartSsdError {
    private static final long serialVersionUID = 1L;

    private final int errno;
    private final int reasonCode;

    public SmartSsdException(String message, int errno, int reasonCode) {
        super(message);
        this.errno = errno;
        this.reasonCode = reasonCode;
    }

    @Override
    public int errno() {
        return errno;
    }


    @Override
    public int reasonCode() {
        return reasonCode;
    }
}
