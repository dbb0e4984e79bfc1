package org.smartssd.device;

/**
 * The drive is formatted with another interface than the command needs: an open-channel
 * or zoned drive has no objects, tasklets or cache, an FTL drive no chunks or zones
 * ({@code smartssd format --interface}). The message names the drive's interface.
 */
public class WrongInterfaceException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public WrongInterfaceException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
