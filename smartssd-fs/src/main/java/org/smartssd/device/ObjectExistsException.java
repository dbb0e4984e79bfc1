package org.smartssd.device;

/** The name already exists (EEXIST / EXISTS). */
public class ObjectExistsException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public ObjectExistsException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
