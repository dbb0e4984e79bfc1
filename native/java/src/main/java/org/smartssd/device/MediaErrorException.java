package org.smartssd.device;

/** The drive could not read or write its flash (EIO / MEDIA_ERROR). */
public class MediaErrorException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public MediaErrorException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
