package org.smartssd.device;

/**
 * What the drive or the host library answered for a failed command: the Linux errno
 * (positive, 0 if none) and the drive's raw reason code (0 if none). Every exception raised
 * for a drive's answer carries one ({@link SmartSsdError#status()}), whatever Java type it
 * otherwise is.
 */
public record DriveStatus(int errno, int reasonCode) {
}
