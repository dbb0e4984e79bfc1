package org.smartssd.mapreduce;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Assigns splits to the drive or the host as two workers draining one queue would: each
 * split, largest first, goes to the side that would finish it first, given the work that side
 * already holds. A drive's side starts with the drive's current queue ({@link DriveQueue});
 * each node's host is one more worker (one stream of reads, Kang's host with NCQ off,
 * [Kang 2014, §6.5.1]). The faster side therefore takes more splits, and neither sits idle
 * while the other still has more than one split's work left. Ties go to the drive, whose run
 * moves only results over the link.
 */
public final class SplitPlanner {
    /** One split's estimates: where its drive and its host are, and both versions' times. */
    public record Estimate(String drive, String node, long deviceNs, long hostNs, long length) {
    }

    private SplitPlanner() {
    }

    /** The side of each split, in the given order. */
    public static List<Placement> plan(List<Estimate> splits, Placement mode,
                                Map<String, Long> driveQueueNs) {
        List<Placement> sides = new ArrayList<>();
        for (int i = 0; i < splits.size(); i++) {
            sides.add(mode == Placement.HOST ? Placement.HOST : Placement.DEVICE);
        }
        if (mode != Placement.AUTO) {
            return sides;
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < splits.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingLong((Integer i) -> -splits.get(i).length()));
        Map<String, Long> device = new HashMap<>();
        Map<String, Long> host = new HashMap<>();
        for (int i : order) {
            Estimate e = splits.get(i);
            long d = device.computeIfAbsent(e.drive(), k -> driveQueueNs.getOrDefault(k, 0L));
            long h = host.getOrDefault(e.node(), 0L);
            if (h + e.hostNs() < d + e.deviceNs()) {
                sides.set(i, Placement.HOST);
                host.put(e.node(), h + e.hostNs());
            } else {
                device.put(e.drive(), d + e.deviceNs());
            }
        }
        return sides;
    }
}
