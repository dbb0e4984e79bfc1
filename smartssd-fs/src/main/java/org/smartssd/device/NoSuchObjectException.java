package org.smartssd.device;

import java.io.FileNotFoundException;

/** The path or object id names nothing on the drive (ENOENT / NO_SUCH_OBJECT). */
public class NoSuchObjectException extends FileNotFoundException implements SmartSsdError {
    private static final long serialVersionUID = 1L;

    private final int errno;
    private final int reasonCode;

    public NoSuchObjectException(String message, int errno, int reasonCode) {
        super(message);
        this.errno = errno;
        this.reasonCode = reasonCode;
    }

    @Override
    public int errno() {
        return errno;
    }


    @Override
    public int reasonCode() {
        return reasonCode;
    }
}
