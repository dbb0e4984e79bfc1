package org.smartssd.device;

import java.nio.file.AccessDeniedException;

/**
 * The drive's daemon does not let this user use the drive (EACCES): its socket's allow-lists
 * ({@code smartssd-devd --allow-uid/--allow-gid}) do not name this user or its groups.
 */
public class DriveAccessDeniedException extends AccessDeniedException implements SmartSsdError {
    private static final long serialVersionUID = 1L;

    private final DriveStatus status;

    public DriveAccessDeniedException(String message, int errno, int reasonCode) {
        super(null, null, message);
        this.status = new DriveStatus(errno, reasonCode);
    }

    @Override
    public DriveStatus status() {
        return status;
    }
}
