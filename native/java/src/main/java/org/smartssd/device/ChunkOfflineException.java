package org.smartssd.device;

/** The chunk failed an erase and is offline for good: it is neither read, written nor reset again. */
public class ChunkOfflineException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public ChunkOfflineException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
