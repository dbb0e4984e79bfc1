package org.smartssd.device;

/** The link to the drive is gone: the daemon exited, the socket closed, or the device was closed. */
public class TransportClosedException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public TransportClosedException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
