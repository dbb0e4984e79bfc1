package org.smartssd.device;

/** The drive could not take the command now: retry later (EAGAIN, EBUSY / BUSY, TAG_IN_USE). */
public class DeviceBusyException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public DeviceBusyException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
