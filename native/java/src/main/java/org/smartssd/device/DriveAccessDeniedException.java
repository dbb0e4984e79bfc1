package org.smartssd.device;

/**
 * The drive's daemon does not let this user use the drive (EACCES): its socket's allow-lists
 * ({@code smartssd-devd --allow-uid/--allow-gid}) do not name this user or its groups.
 */
public class DriveAccessDeniedException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    public DriveAccessDeniedException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
