package org.smartssd.spark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.read.InputPartition;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.tasklet.HostTasklet;
import org.smartssd.fs.DriveLog;
import org.smartssd.scan.Placement;
import org.smartssd.scan.HostTasklets;
import org.smartssd.scan.PlacementCalibration;
import org.smartssd.scan.ScanRange;
import org.smartssd.scan.DrainScheduler;
import org.smartssd.scan.SplitPlanner;

/**
 * Where each partition's pushed work runs, decided on the driver as a device job decides it
 * for its splits ({@link Placement}, smartssd-scan): each drive calibrated once on its
 * first non-empty partition ({@link PlacementCalibration}: the tasklet's counted work per
 * page priced by the drive's profile, the link's rate, the host version's measured rate,
 * here {@link HostTasklet}), both versions estimated per partition, and the drive and the host
 * draining the one queue of partitions ({@link SplitPlanner#place}, the code that places a
 * device job's splits). With {@code auto} that plan is the start: each node's partitions
 * become one {@link NodeDrainPartition}, drained at run time ({@link TaskletReader}, the device
 * job's {@code DrainScheduler}), unless {@code smartssd.job.placement.auto.drain} is false. A
 * plain record read (nothing pushed) is not placed: it runs on the host already.
 */
final class PartitionPlacement {
    private PartitionPlacement() {
    }

    static List<InputPartition> place(ScanPlan plan, List<SmartSsdPartition> parts)
            throws IOException {
        if (plan.placement() == null || plan.mode() == ScanPlan.Mode.READ) {
            return new ArrayList<>(parts);
        }
        List<ScanRange> splits = new ArrayList<>();
        for (SmartSsdPartition p : parts) {
            if (p.cached()) {
                throw new IOException("placement is not planned for sscache:// files ("
                        + p.path() + "): their partitions run in the drive over the cached "
                        + "blocks and on the host over the rest");
            }
            splits.add(new ScanRange(new Path(p.path()), p.start(), p.length(), p.hosts()));
        }
        TaskletSpec spec = plan.spec();
        long t0 = System.nanoTime();
        List<SplitPlanner.Placed> placed = SplitPlanner.place(plan.conf().hadoop(), spec, splits,
                plan.placement(), HostTasklets.operator("smartssd-spark", spec));
        java.util.Set<String> drives = new java.util.TreeSet<>();
        splits.forEach(s -> drives.add(s.drive()));
        DriveLog.of(PartitionPlacement.class, String.join(",", drives)).info(
                "placed {} partitions ({}) in {} ms", parts.size(), plan.placement().cliName(),
                (System.nanoTime() - t0) / 1_000_000);
        List<SmartSsdPartition> out = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            SplitPlanner.Placed p = placed.get(i);
            out.add(parts.get(i).placed(p.side(), p.deviceNs(), p.hostNs(), p.calibration()));
        }
        if (plan.placement() != Placement.AUTO
                || !plan.conf().hadoop().getBoolean(Placement.DRAIN, true)) {
            return new ArrayList<>(out);
        }
        // auto: each node's partitions drained at run time by its drives and its host
        List<InputPartition> drained = new ArrayList<>();
        DrainScheduler.byNode(out, SmartSsdPartition::hosts).forEach((node, mine) ->
                drained.add(new NodeDrainPartition(drained.size(), node, mine)));
        return drained;
    }
}
