package org.smartssd.device;

/** The root directory cannot be removed or renamed (ROOT). */
public class RootDirectoryException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public RootDirectoryException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
