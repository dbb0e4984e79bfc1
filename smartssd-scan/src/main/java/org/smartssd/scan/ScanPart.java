package org.smartssd.scan;

/**
 * One range of a scan task with its placement: the side that runs it ({@code null}:
 * unplaced, the drive, nothing estimated), the planner's estimates of both sides and its
 * drive's calibration (null unplaced), and its index in the task (outputs keep that order).
 */
public record ScanPart(int index, ScanRange range, Placement side, long deviceEstimateNs,
                       long hostEstimateNs, PlacementCalibration calibration) {
    public ScanPart {
        if (side == Placement.AUTO) {
            throw new IllegalArgumentException("a range runs on the device or the host");
        }
    }

    /** An unplaced range: the drive runs it, nothing is estimated. */
    public static ScanPart unplaced(int index, ScanRange range) {
        return new ScanPart(index, range, null, 0, 0, null);
    }

    public boolean placed() {
        return side != null;
    }

    public boolean onHost() {
        return side == Placement.HOST;
    }
}
