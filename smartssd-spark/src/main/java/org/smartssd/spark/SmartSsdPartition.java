package org.smartssd.spark;

import org.apache.spark.sql.connector.read.InputPartition;
import org.smartssd.scan.Placement;
import org.smartssd.scan.PlacementCalibration;

/**
 * A byte range of one of the table's files: the records whose first byte lies in it (the
 * drive's split rule), on the host of the file's drive, where Spark prefers to run it. A
 * placed partition ({@link PartitionPlacement}) also says which side runs its tasklet's work,
 * the planner's estimates of both sides and its drive's calibration; unplaced, {@code side}
 * is null (the drive, nothing estimated).
 */
public record SmartSsdPartition(int index, String path, long fileLength, long start,
                                long length, String[] hosts, Placement side,
                                long deviceEstimateNs, long hostEstimateNs,
                                PlacementCalibration calibration) implements InputPartition {
    SmartSsdPartition(int index, String path, long fileLength, long start, long length,
                      String[] hosts) {
        this(index, path, fileLength, start, length, hosts, null, 0, 0, null);
    }

    /** This range placed on {@code on}. */
    SmartSsdPartition placed(Placement on, long deviceNs, long hostNs, PlacementCalibration c) {
        if (on == Placement.AUTO) {
            throw new IllegalArgumentException("a partition runs on the device or the host");
        }
        return new SmartSsdPartition(index, path, fileLength, start, length, hosts, on,
                deviceNs, hostNs, c);
    }

    /** Whether the host evaluates the pushed operations over the range's raw records. */
    boolean onHost() {
        return side == Placement.HOST;
    }

    /** Whether the range is of an {@code sscache://} file, read through the drive's cache. */
    boolean cached() {
        return org.smartssd.fs.sscache.SsCacheConstants.SCHEME.equals(
                new org.apache.hadoop.fs.Path(path).toUri().getScheme());
    }

    @Override
    public String[] preferredLocations() {
        return hosts.clone();
    }

    /** Index of the first record of the range. */
    long firstRecord(int recordSize) {
        return (start + recordSize - 1) / recordSize;
    }

    /** Index past the last record of the range. */
    long endRecord(int recordSize) {
        long end = (start + length + recordSize - 1) / recordSize;
        return Math.min(end, fileLength / recordSize);
    }
}
