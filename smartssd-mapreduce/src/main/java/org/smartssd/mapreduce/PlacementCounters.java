package org.smartssd.mapreduce;
import org.smartssd.scan.Placement;
import org.smartssd.scan.DrainScheduler;

/**
 * Why a placed device job ({@link Placement}) ran each split where it did, group
 * {@code org.smartssd.mapreduce.PlacementCounters}: the splits on each side, the planner's
 * estimate for the side each split ran on, and beside it the modelled time of what ran.
 * Times in nanoseconds. Modelled device time is the run's counted work priced by the drive's
 * profile (pages x firmware overhead + instructions + DRAM accesses, [Kang 2014, Fig. 6.6])
 * plus its output over the link; modelled host time is the bytes the host read over the link
 * plus the host's rate (configured or calibrated, the job's
 * {@code smartssd.job.placement.calibrated.*}) over the bytes and records it read. Neither
 * comes from wall clock; HOST_CPU_NS is the host's measured CPU time, for comparison.
 */
public enum PlacementCounters {
    SPLITS_ON_DEVICE,
    SPLITS_ON_HOST,
    ESTIMATED_DEVICE_NS,
    MODELLED_DEVICE_NS,
    ESTIMATED_HOST_NS,
    MODELLED_HOST_NS,
    /** Bytes and records the host versions read through smartssd://. */
    HOST_BYTES_READ,
    HOST_RECORDS,
    /** The host versions' thread CPU time, measured (never modelled). */
    HOST_CPU_NS,
    /** Rounds in which the drained splits ({@link DrainScheduler}) were handed out. */
    DRAIN_ROUNDS,
    /** Drained splits that ran on the other side than the plan made before the job. */
    SPLITS_MOVED_BY_DRAIN
}
