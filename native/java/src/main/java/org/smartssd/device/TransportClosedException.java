package org.smartssd.device;

/**
 * The link to the drive closed: the daemon exited or restarted, the socket closed, or the
 * device was closed. Retryable: an open device reconnects on its next call once a daemon
 * serves the drive again (with a new session), so the same {@link SmartSsdDevice} and the
 * FileSystem above it go on working. Nothing is sent twice behind the caller's back: a call
 * that was in flight when the link closed may or may not have run ({@link #mayHaveRun()}).
 */
public class TransportClosedException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public TransportClosedException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }

    /** True when the request was sent before the link closed, so whether it ran is unknown. */
    public boolean mayHaveRun() {
        return errno() == Errno.ECONNRESET;
    }
}
