package org.smartssd.scan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.smartssd.device.TaskletSpec;
import org.smartssd.fs.DriveLog;

/**
 * Assigns splits to the drive or the host as two workers draining one queue would: each
 * split, largest first, goes to the side that would finish it first, given the work that side
 * already holds. A drive's side starts with the drive's current queue ({@link DriveQueue}:
 * the drive's own report of the runs executing on it, from any JVM);
 * each node's host is one more worker (one stream of reads, Kang's host with NCQ off,
 * [Kang 2014, §6.5.1]). The faster side therefore takes more splits, and neither sits idle
 * while the other still has more than one split's work left. Ties go to the drive, whose run
 * moves only results over the link.
 */
public final class SplitPlanner {

    /** One split's estimates: where its drive and its host are, and both versions' times. */
    public record Estimate(String drive, String node, long deviceNs, long hostNs, long length) {
    }

    /**
     * One split's plan: its side, both estimates, and its drive's calibration (null for an
     * empty split, which runs nothing and is left on the drive).
     */
    public record Placed(Placement side, long deviceNs, long hostNs,
                         PlacementCalibration calibration) {
    }

    /**
     * Plans each split's side, for a device job's splits and the Spark connector's
     * partitions alike: calibrates each drive once (its first non-empty split;
     * {@link PlacementCalibration}, with {@code host} the host version), estimates both
     * versions of every split, and lets the drive and the host drain the queue of splits
     * ({@link #plan}), each drive's side starting at its current queue ({@link DriveQueue}).
     * Logs the counts, estimates and calibrations.
     */
    public static List<Placed> place(Configuration conf, TaskletSpec spec, List<ScanRange> splits,
                                     Placement mode, PlacementCalibration.HostOperator host)
            throws IOException {
        return place(conf, splits, mode, first -> PlacementCalibration.probe(conf, spec, first,
                host));
    }

    /** How {@link #place} calibrates a drive, given its first non-empty split. */
    @FunctionalInterface
    public interface Calibrator {
        PlacementCalibration calibrate(ScanRange first) throws IOException;
    }

    /**
     * {@link #place} with each drive's calibration from {@code calibrator}: the probes, or
     * (OtherJvmQueueTest) the calibration a plan of the same splits probed, where the drive
     * cannot run probes (a daemon whose background never runs holds another JVM's run still).
     */
    public static List<Placed> place(Configuration conf, List<ScanRange> splits,
                                     Placement mode, Calibrator calibrator) throws IOException {
        Map<String, PlacementCalibration> cal = new LinkedHashMap<>();
        Map<String, Long> queues = new HashMap<>();
        Map<String, DriveQueue.Pending> pending = new LinkedHashMap<>();
        List<Estimate> est = new ArrayList<>();
        for (ScanRange s : splits) {
            String drive = s.drive();
            if (s.length() == 0) {
                est.add(new Estimate(drive, "", 0, 0, 0));
                continue;
            }
            PlacementCalibration c = cal.get(drive);
            if (c == null) {
                c = calibrator.calibrate(s);
                cal.put(drive, c);
                // after the probes, which ran to their end: the queue is other work's
                DriveQueue.Pending q = DriveQueue.pending(drive,
                        DeviceAccess.fileSystem(s.path(), conf).device());
                pending.put(drive, q);
                queues.put(drive, q.ns());
            }
            est.add(new Estimate(drive, s.node(), c.deviceNs(s), c.hostNs(s), s.length()));
        }
        List<Placement> sides = plan(est, mode, queues);
        List<Placed> out = new ArrayList<>();
        long[] n = new long[2];
        long[] ns = new long[2];
        for (int i = 0; i < splits.size(); i++) {
            Estimate e = est.get(i);
            Placement side = e.length() == 0 ? Placement.DEVICE : sides.get(i);
            out.add(new Placed(side, e.deviceNs(), e.hostNs(), cal.get(e.drive())));
            int k = side == Placement.DEVICE ? 0 : 1;
            n[k]++;
            ns[k] += k == 0 ? e.deviceNs() : e.hostNs();
        }
        DriveLog.of(SplitPlanner.class, String.join(",", cal.keySet())).info(
                "placement {}: {} splits on the device (estimated {} ns), {} on the host "
                + "(estimated {} ns); drive queues {}; {}", mode.cliName(), n[0], ns[0], n[1],
                ns[1], pending, cal);
        return out;
    }

    private SplitPlanner() {
    }

    /** The side of each split, in the given order. */
    public static List<Placement> plan(List<Estimate> splits, Placement mode,
                                Map<String, Long> driveQueueNs) {
        if (mode != Placement.AUTO) {
            List<Placement> sides = new ArrayList<>();
            for (int i = 0; i < splits.size(); i++) {
                sides.add(mode == Placement.HOST ? Placement.HOST : Placement.DEVICE);
            }
            return sides;
        }
        Map<String, Long> device = new HashMap<>(driveQueueNs);
        return drain(splits, device, new HashMap<>());
    }

    /**
     * The queue drained from the given clocks: each split, largest first, to the side that
     * would finish it first, the drive's clock ({@code deviceClock}, by drive) or its node's
     * host's ({@code hostClock}, by node), ties to the drive. Advances the clocks by the
     * estimates of the splits each side takes; returns the sides in the given order.
     * {@link #plan} starts it from the drives' queues, {@link DrainScheduler} from the modelled
     * clocks reached at run time.
     */
    static List<Placement> drain(List<Estimate> splits, Map<String, Long> deviceClock,
                                 Map<String, Long> hostClock) {
        List<Placement> sides = new ArrayList<>();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < splits.size(); i++) {
            sides.add(Placement.DEVICE);
            order.add(i);
        }
        order.sort(Comparator.comparingLong((Integer i) -> -splits.get(i).length()));
        for (int i : order) {
            Estimate e = splits.get(i);
            long d = deviceClock.getOrDefault(e.drive(), 0L);
            long h = hostClock.getOrDefault(e.node(), 0L);
            if (h + e.hostNs() < d + e.deviceNs()) {
                sides.set(i, Placement.HOST);
                hostClock.put(e.node(), h + e.hostNs());
            } else {
                deviceClock.put(e.drive(), d + e.deviceNs());
            }
        }
        return sides;
    }
}
