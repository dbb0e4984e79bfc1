package org.smartssd.device;

/**
 * What one {@link SmartSsdDevice} has done since it was opened, counted on the host: the
 * operator's view of a process's traffic with its drive (Hadoop's metrics2 publishes it,
 * {@code smartssd-fs}'s {@code DriveClientMetrics}).
 *
 * @param calls        calls into the drive through the handle (a call is one command, or a
 *                     few for a transfer larger than a command carries)
 * @param errors       calls that failed, whatever the reason (a missing path among them)
 * @param reconnects   sessions opened again after the link closed or the daemon restarted
 * @param bytesToDrive payload bytes written to the drive's objects
 * @param bytesFromDrive payload bytes read from the drive's objects and tasklet outputs
 * @param taskletRuns  tasklet runs started in the drive (scans pushed down)
 */
public record ClientStatistics(long calls, long errors, long reconnects, long bytesToDrive,
                               long bytesFromDrive, long taskletRuns) {
}
