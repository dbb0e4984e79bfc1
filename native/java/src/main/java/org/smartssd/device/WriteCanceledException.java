package org.smartssd.device;

/**
 * A queued write the drive did not run, because an earlier queued write of the same
 * session to the same object failed ({@code SS_WRITE_ORDERED}): nothing of it was written.
 * The earlier write's own error says what went wrong.
 */
public class WriteCanceledException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public WriteCanceledException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
