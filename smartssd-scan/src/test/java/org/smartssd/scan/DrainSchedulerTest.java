package org.smartssd.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntToLongFunction;

import org.junit.jupiter.api.Test;

/**
 * The run-time drain ({@link DrainScheduler}) against the plan made before the job
 * ({@link SplitPlanner#plan}) over the same splits, where each split's modelled time on each
 * side is given (the test's cost of a split, which the drain learns only by running it). The
 * reference for how well a drain can do is the fluid bound: the work shared between the two
 * sides at their true rates, T = D H / (D + H) for device-only time D and host-only time H.
 */
class DrainSchedulerTest {
    static final String DRIVE = "d0";
    static final String NODE = "n0";

    /** 40 splits of 1 MiB; device estimate 1 ms each, host estimate 2 ms each. */
    static List<SplitPlanner.Estimate> splits(int n) {
        List<SplitPlanner.Estimate> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new SplitPlanner.Estimate(DRIVE, NODE, 1_000_000, 2_000_000, 1 << 20));
        }
        return out;
    }

    /** The modelled end of the plan made before the job, its splits at their true costs. */
    static long planned(List<SplitPlanner.Estimate> s, IntToLongFunction device,
                        IntToLongFunction host) {
        List<Placement> sides = SplitPlanner.plan(s, Placement.AUTO, Map.of());
        long d = 0;
        long h = 0;
        for (int i = 0; i < s.size(); i++) {
            if (sides.get(i) == Placement.DEVICE) {
                d += device.applyAsLong(i);
            } else {
                h += host.applyAsLong(i);
            }
        }
        return Math.max(d, h);
    }

    static double fluid(int n, IntToLongFunction device, IntToLongFunction host) {
        double d = 0;
        double h = 0;
        for (int i = 0; i < n; i++) {
            d += device.applyAsLong(i);
            h += host.applyAsLong(i);
        }
        return d * h / (d + h);
    }

    static DrainScheduler.Outcome drain(List<SplitPlanner.Estimate> s, Map<String, Long> queue,
                                    IntToLongFunction device, IntToLongFunction host)
            throws Exception {
        Map<Integer, Integer> runs = new ConcurrentHashMap<>();
        DrainScheduler.Outcome o = DrainScheduler.run(s, queue, (i, side) -> {
            runs.merge(i, 1, Integer::sum);
            return side == Placement.DEVICE ? device.applyAsLong(i) : host.applyAsLong(i);
        });
        assertThat(runs).as("every split runs once").hasSize(s.size());
        assertThat(runs.values()).containsOnly(1);
        return o;
    }

    /**
     * Drains {@code n} splits of the test's estimates at the given true costs; checks that
     * the plan made from the estimates ends at {@code plan} and the drain below
     * {@code ofPlan} of it and within {@code ofBound} of the fluid bound.
     */
    static DrainScheduler.Outcome drainsBetter(int n, IntToLongFunction dev, IntToLongFunction host,
                                           long plan, double ofPlan, double ofBound)
            throws Exception {
        List<SplitPlanner.Estimate> s = splits(n);
        long planned = planned(s, dev, host);
        DrainScheduler.Outcome o = drain(s, Map.of(), dev, host);
        double bound = fluid(n, dev, host);
        if (plan > 0) {
            assertThat(planned).as("the plan, made from the estimates").isEqualTo(plan);
        }
        assertThat((double) o.makespanNs()).as("drained (plan %d, bound %.0f)", planned, bound)
                .isLessThan(planned * ofPlan)
                .isLessThanOrEqualTo(bound * ofBound);
        return o;
    }

    @Test
    void exactEstimatesDrainAsThePlan() throws Exception {
        List<SplitPlanner.Estimate> s = splits(40);
        IntToLongFunction dev = i -> 1_000_000;
        IntToLongFunction host = i -> 2_000_000;
        DrainScheduler.Outcome o = drain(s, Map.of(), dev, host);
        long plan = planned(s, dev, host);
        // 40 splits at 1 and 2 ms: the drive takes 27, the host 13 (27 and 26 ms)
        assertThat(plan).isEqualTo(27_000_000);
        assertThat(o.makespanNs()).isEqualTo(plan);
        assertThat(o.sides().stream().filter(p -> p == Placement.HOST).count()).isEqualTo(13);
        assertThat(o.rounds()).isGreaterThan(1);
    }

    @Test
    void aDriveSlowerThanItsEstimateGetsFewerSplits() throws Exception {
        // the drive's true cost is 3x its estimate (its first split was cheaper than the
        // rest), the host's is as estimated
        DrainScheduler.Outcome o = drainsBetter(40, i -> 3_000_000, i -> 2_000_000, 81_000_000,
                0.65, 1.10);
        long onHost = o.sides().stream().filter(p -> p == Placement.HOST).count();
        assertThat(onHost).as("splits on the host").isGreaterThan(13);
    }

    @Test
    void aHostSlowerThanItsEstimateLeavesMoreToTheDrive() throws Exception {
        drainsBetter(40, i -> 1_000_000, i -> 8_000_000, 13 * 8_000_000L, 0.5, 1.10);
    }

    @Test
    void costsThatChangeAlongTheFileAreFollowed() throws Exception {
        // the first half of the file costs the drive what its estimate says, the second 4x
        Random rnd = new Random(7);
        long[] devCost = new long[64];
        long[] hostCost = new long[64];
        for (int i = 0; i < 64; i++) {
            devCost[i] = (i < 32 ? 1_000_000 : 4_000_000) + rnd.nextInt(100_000);
            hostCost[i] = 2_000_000 + rnd.nextInt(100_000);
        }
        drainsBetter(64, i -> devCost[i], i -> hostCost[i], 0, 0.85, 1.15);
    }

    @Test
    void aQueuedDriveStartsLate() throws Exception {
        List<SplitPlanner.Estimate> s = splits(40);
        IntToLongFunction dev = i -> 1_000_000;
        IntToLongFunction host = i -> 2_000_000;
        DrainScheduler.Outcome idle = drain(s, Map.of(), dev, host);
        DrainScheduler.Outcome queued = drain(s, Map.of(DRIVE, 20_000_000L), dev, host);
        long idleHost = idle.sides().stream().filter(p -> p == Placement.HOST).count();
        long queuedHost = queued.sides().stream().filter(p -> p == Placement.HOST).count();
        assertThat(queuedHost).isGreaterThan(idleHost);
        assertThat(queued.deviceClock().get(DRIVE)).isGreaterThanOrEqualTo(20_000_000L);
    }

    @Test
    void theSidesDoNotDependOnWhichThreadFinishesFirst() throws Exception {
        List<SplitPlanner.Estimate> s = new ArrayList<>();
        Random r = new Random(11);
        for (int i = 0; i < 30; i++) {
            s.add(new SplitPlanner.Estimate(i % 2 == 0 ? "d0" : "d1", NODE,
                    500_000 + r.nextInt(1_000_000), 1_000_000 + r.nextInt(1_000_000),
                    (1 << 20) - r.nextInt(1 << 16)));
        }
        long[] dev = new long[30];
        long[] host = new long[30];
        for (int i = 0; i < 30; i++) {
            dev[i] = s.get(i).deviceNs() * (i < 15 ? 1 : 3);
            host[i] = s.get(i).hostNs();
        }
        DrainScheduler.Outcome first = null;
        for (int round = 0; round < 4; round++) {
            Random delay = new Random(round);
            Map<Integer, Long> wait = new HashMap<>();
            for (int i = 0; i < 30; i++) {
                wait.put(i, (long) delay.nextInt(4));
            }
            DrainScheduler.Outcome o = DrainScheduler.run(s, Map.of("d1", 700_000L), (i, side) -> {
                Thread.sleep(wait.get(i));   // wall-clock order varies from run to run
                return side == Placement.DEVICE ? dev[i] : host[i];
            });
            if (first == null) {
                first = o;
            } else {
                assertThat(o.sides()).isEqualTo(first.sides());
                assertThat(o.modelledNs()).isEqualTo(first.modelledNs());
                assertThat(o.deviceClock()).isEqualTo(first.deviceClock());
                assertThat(o.hostClock()).isEqualTo(first.hostClock());
            }
        }
    }

    @Test
    void aFailedSplitFailsTheDrainAndNoRoundFollows() {
        List<SplitPlanner.Estimate> s = splits(20);
        AtomicBoolean hostFailed = new AtomicBoolean();
        AtomicInteger started = new AtomicInteger();
        assertThatThrownBy(() -> DrainScheduler.run(s, Map.of(), (i, side) -> {
            started.incrementAndGet();
            if (side == Placement.HOST && hostFailed.compareAndSet(false, true)) {
                throw new IOException("host split " + i + ": disk gone");
            }
            return 1_000_000;
        })).isInstanceOf(IOException.class).hasMessageContaining("disk gone");
        assertThat(started.get()).as("splits started").isLessThan(20);
    }
}
