package org.smartssd.device;

/** The drive no longer knows this host's session, typically after the daemon restarted: reopen the device (BAD_SESSION). */
public class SessionLostException extends TransportClosedException {
    private static final long serialVersionUID = 1L;

    public SessionLostException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
