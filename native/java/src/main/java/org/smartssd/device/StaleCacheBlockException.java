package org.smartssd.device;

/**
 * A cache scan in the drive ({@link SolidStateCache#scan}) met a block that is not of the
 * file's version (changed behind the cache's back, or damaged): the run stopped and no
 * record of it counts. The host scans the file itself; its reads replace the stale blocks.
 */
public class StaleCacheBlockException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public StaleCacheBlockException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
