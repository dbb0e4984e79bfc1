package org.smartssd.scan;

import java.util.Locale;
import java.util.Optional;

import org.apache.hadoop.conf.Configuration;

/**
 * Where a device job's splits run ({@value #KEY}): every split in the drive ({@code device}),
 * every split on the host with the job's host mapper over the split's records read through
 * {@code smartssd://} ({@code host}), or each split where it is estimated to finish first
 * ({@code auto}): the drive and the host drain the one queue of splits, so the faster side
 * takes more of them and neither idles while the other works ({@link SplitPlanner}).
 *
 * <p>Unset, a device job runs every split in the drive and plans nothing (as before the key
 * existed); set to {@code device}, it does the same but plans, so the job's
 * {@link PlacementCounters} show the estimates beside the modelled times.
 */
public enum Placement {
    DEVICE, HOST, AUTO;

    /** {@code device}, {@code host} or {@code auto}. */
    public static final String KEY = "smartssd.job.placement";
    /** The host version of the map: a {@code Mapper<LongWritable, BytesWritable, K, V>}
     *  emitting the device format's key and value classes. */
    public static final String HOST_MAPPER_CLASS = "smartssd.job.placement.host.mapper.class";
    /** The host's CPU time per byte of the split (its I/O path and map function); unset:
     *  measured once per JVM over real records ({@link PlacementCalibration}). */
    public static final String HOST_NS_PER_BYTE = "smartssd.job.placement.host.ns-per-byte";
    /** The host's CPU time per record, added to the per-byte rate (default 0). */
    public static final String HOST_NS_PER_RECORD = "smartssd.job.placement.host.ns-per-record";
    /** The host link's time per byte; unset: from the drive's model counters, or SATA 3 Gb/s
     *  (8192 B in 27,307 ns, [Kang 2014, §6.5.1]) on a drive without them. */
    public static final String LINK_NS_PER_BYTE = "smartssd.job.placement.link.ns-per-byte";
    /**
     * With {@code auto}: whether each node's splits are drained at run time by its drives and
     * its host together ({@link DrainScheduler}: one map task per node, where a split runs decided
     * from the modelled times of the splits run so far), default true; false runs each split
     * as its own task where the plan made before the job put it.
     */
    public static final String DRAIN = "smartssd.job.placement.auto.drain";
    /** Prefix of what the planner measured or took, written into the job for its tasks. */
    public static final String CALIBRATED = "smartssd.job.placement.calibrated.";

    /** The job's placement, empty when {@value #KEY} is unset. */
    public static Optional<Placement> of(Configuration conf) {
        String v = conf.getTrimmed(KEY, "");
        if (v.isEmpty()) {
            return Optional.empty();
        }
        for (Placement p : values()) {
            if (p.cliName().equals(v.toLowerCase(Locale.ROOT))) {
                return Optional.of(p);
            }
        }
        throw new IllegalArgumentException(KEY + "=" + v + " is not a placement: use device, "
                + "host or auto");
    }

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
