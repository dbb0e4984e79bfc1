package org.smartssd.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The planner's queue: the side that would finish a split first takes it, so the work splits
 * in proportion to the two sides' speeds, a drive's queue pushes work to the host, and the
 * fixed placements put everything on one side. Also an unknown placement refused by name.
 */
class SplitPlannerTest {
    private static List<SplitPlanner.Estimate> splits(int n, long deviceNs, long hostNs) {
        List<SplitPlanner.Estimate> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(new SplitPlanner.Estimate("d0", "node1", deviceNs, hostNs, 1 << 20));
        }
        return l;
    }

    /** Each side's total estimated time under the plan. */
    private static long[] busy(List<SplitPlanner.Estimate> s, List<Placement> sides) {
        long[] t = new long[2];
        for (int i = 0; i < s.size(); i++) {
            if (sides.get(i) == Placement.DEVICE) {
                t[0] += s.get(i).deviceNs();
            } else {
                t[1] += s.get(i).hostNs();
            }
        }
        return t;
    }

    @Test
    void theFasterSideTakesMoreAndTheFinishIsWithinOneSplit() {
        // the drive 3x as fast: it takes 3 of every 4 splits
        List<SplitPlanner.Estimate> s = splits(40, 100, 300);
        List<Placement> sides = SplitPlanner.plan(s, Placement.AUTO, Map.of());
        assertThat(Collections.frequency(sides, Placement.DEVICE)).isEqualTo(30);
        long[] t = busy(s, sides);
        assertThat(Math.abs(t[0] - t[1])).as("both sides finish within one split")
                .isLessThanOrEqualTo(300);
        // the host 2x as fast: it takes 2 of every 3
        s = splits(30, 200, 100);
        sides = SplitPlanner.plan(s, Placement.AUTO, Map.of());
        assertThat(Collections.frequency(sides, Placement.HOST)).isEqualTo(20);
    }

    @Test
    void aQueuedDriveSendsWorkToTheHost() {
        List<SplitPlanner.Estimate> s = splits(10, 100, 100);
        assertThat(Collections.frequency(SplitPlanner.plan(s, Placement.AUTO, Map.of()),
                Placement.DEVICE)).isEqualTo(5);
        // 600 ns already queued on the drive: the host takes 8 splits, the drive 2
        assertThat(Collections.frequency(SplitPlanner.plan(s, Placement.AUTO,
                Map.of("d0", 600L)), Placement.DEVICE)).isEqualTo(2);
    }

    @Test
    void fixedPlacementsIgnoreTheEstimates() {
        List<SplitPlanner.Estimate> s = splits(5, 1, 1000);
        assertThat(SplitPlanner.plan(s, Placement.HOST, Map.of())).containsOnly(Placement.HOST);
        assertThat(SplitPlanner.plan(splits(5, 1000, 1), Placement.DEVICE, Map.of()))
                .containsOnly(Placement.DEVICE);
    }

    @Test
    void anUnknownPlacementIsRefusedByName() {
        Configuration c = new Configuration(false);
        assertThat(Placement.of(c)).isEmpty();
        c.set(Placement.KEY, "Auto");
        assertThat(Placement.of(c)).contains(Placement.AUTO);
        c.set(Placement.KEY, "gpu");
        assertThatThrownBy(() -> Placement.of(c)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("smartssd.job.placement=gpu");
    }
}
