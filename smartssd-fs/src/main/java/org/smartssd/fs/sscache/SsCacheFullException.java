package org.smartssd.fs.sscache;

import java.io.IOException;

/**
 * A write-back write found the drive's cache full of dirty data and the cleaner could not
 * make room in time. Nothing acknowledged is dropped: the files closed before stay dirty in
 * the cache until they are written back; the data of this write was not accepted.
 */
public class SsCacheFullException extends IOException {
    private static final long serialVersionUID = 1L;

    public SsCacheFullException(String message, Throwable cause) {
        super(message, cause);
    }
}
