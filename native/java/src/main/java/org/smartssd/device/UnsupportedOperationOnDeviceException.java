package org.smartssd.device;

/** The drive or its transport does not offer this operation, e.g. the energy model of a real drive (ENOTSUP, ENOSYS). */
public class UnsupportedOperationOnDeviceException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public UnsupportedOperationOnDeviceException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
