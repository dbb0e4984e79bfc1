package org.smartssd.device;

/** A raw sector command was refused: outside the drive (LBA_RANGE) or into object-store metadata (LBA_PROTECTED). */
public class LbaAccessException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public LbaAccessException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
