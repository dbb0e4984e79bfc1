package org.smartssd.device;

/**
 * Every place other clients can hold is taken: the drive's sessions, each held by a client
 * still connected (TOO_MANY_SESSIONS, after the library's bounded retries), or the
 * daemon's connections (EUSERS: its --max-connections are open). Nothing was done; retry
 * once some clients have finished.
 */
public class TooManySessionsException extends DeviceBusyException {
    private static final long serialVersionUID = 1L;

    public TooManySessionsException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
