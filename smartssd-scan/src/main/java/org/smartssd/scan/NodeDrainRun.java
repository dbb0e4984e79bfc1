package org.smartssd.scan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.smartssd.fs.DriveLog;

/**
 * A node's parts drained by its drives and its host together ({@link DrainScheduler}), each
 * drive's side starting at its queue as the drive reports it when the task starts
 * ({@link DriveQueue}). A part runs as a single one would on its side
 * ({@link DeviceRangeRun}, {@link HostRangeRun}); the rounds and the parts run on the other
 * side than the plan's are counted.
 */
final class NodeDrainRun {
    private NodeDrainRun() {
    }

    static ScanStats run(ScanTask task, ScanEngine engine)
            throws IOException, InterruptedException {
        List<ScanPart> parts = task.parts();
        List<SplitPlanner.Estimate> est = new ArrayList<>();
        Map<String, Long> queues = new LinkedHashMap<>();
        for (ScanPart p : parts) {
            String drive = p.range().drive();
            est.add(new SplitPlanner.Estimate(drive, task.node(), p.deviceEstimateNs(),
                    p.hostEstimateNs(), p.range().length()));
            if (!queues.containsKey(drive)) {
                queues.put(drive, DriveQueue.pending(drive,
                        DeviceAccess.fileSystem(p.range().path(), task.conf()).device()).ns());
            }
        }
        ScanStats[] ran = new ScanStats[parts.size()];
        DrainScheduler.Outcome o = DrainScheduler.run(est, queues, (i, side) -> {
            ScanPart p = parts.get(i);
            if (p.range().length() == 0) {
                engine.nothingToRun(p);
                return 0;
            }
            ScanExecution.Ran r = side == Placement.HOST ? HostRangeRun.run(engine, p)
                    : DeviceRangeRun.run(task, engine, p);
            ran[i] = r.stats();
            return r.modelledNs();
        });
        ScanStats total = ScanStats.NONE;
        int moved = 0;
        for (int i = 0; i < parts.size(); i++) {
            if (ran[i] != null) {
                total = total.plus(ran[i]);
            }
            if (o.sides().get(i) != parts.get(i).side()) {
                moved++;
            }
        }
        DriveLog.of(NodeDrainRun.class, String.join(",", queues.keySet())).info(
                "drained {} parts on {} in {} rounds: sides {} ({} moved from the plan); "
                + "modelled clocks at the end: drives {}, host {}", parts.size(),
                task.node().isEmpty() ? "this node" : task.node(), o.rounds(), o.sides(), moved,
                o.deviceClock(), o.hostClock());
        return total.withPlacement(ScanStats.PlacementWork.drain(o.rounds(), moved));
    }
}
