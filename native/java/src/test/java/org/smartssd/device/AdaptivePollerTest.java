package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AdaptivePollerTest {
    private static final long MS = 1_000_000L;
    private final PollPolicy policy = new PollPolicy(100_000, 200 * MS); // 0.1 ms .. 200 ms

    @Test
    void firstPollWaitsTheMinimum() {
        AdaptivePoller p = new AdaptivePoller(policy);
        assertThat(p.nextDelay(0, 1000, 0)).isEqualTo(100_000);
    }

    @Test
    void waitsHalfTheEstimatedRemainingTime() {
        AdaptivePoller p = new AdaptivePoller(policy);
        p.nextDelay(0, 1000, 0);
        // 100 pages in 10 ms: 0.01 pages/us; 900 left -> 90 ms to go -> wait 45 ms
        assertThat(p.nextDelay(100, 1000, 10 * MS)).isEqualTo(45 * MS);
        assertThat(p.pagesPerSecond()).isCloseTo(10_000.0, org.assertj.core.data.Offset.offset(1e-6));
        // next 100 pages took 45 ms: rate 100/45ms; smoothed = (0.01 + 0.0022222)/2 pages/us
        // = 0.006111 pages/us; 800 left -> 130.909 ms -> wait 65.4545 ms
        long d = p.nextDelay(200, 1000, 55 * MS);
        assertThat(d).isBetween(65_454_000L, 65_455_000L);
    }

    @Test
    void fastProgressKeepsTheFloorAndSlowProgressTheCeiling() {
        AdaptivePoller fast = new AdaptivePoller(policy);
        fast.nextDelay(0, 1000, 0);
        // 999 pages in 1 ms: 1 page left at ~1 page/us -> far below the floor
        assertThat(fast.nextDelay(999, 1000, MS)).isEqualTo(100_000);

        AdaptivePoller slow = new AdaptivePoller(policy);
        slow.nextDelay(0, 1_000_000, 0);
        // 1 page per second, a million to go: the ceiling
        assertThat(slow.nextDelay(1, 1_000_000, 1000 * MS)).isEqualTo(200 * MS);
    }

    @Test
    void withoutProgressItBacksOffGeometricallyToTheCeiling() {
        AdaptivePoller p = new AdaptivePoller(policy);
        long d = p.nextDelay(0, 100, 0);
        long now = 0;
        long[] expect = {200_000, 400_000, 800_000, 1_600_000};
        for (long e : expect) {
            now += d;
            d = p.nextDelay(0, 100, now);
            assertThat(d).isEqualTo(e);
        }
        for (int i = 0; i < 20; i++) {
            now += d;
            d = p.nextDelay(0, 100, now);
        }
        assertThat(d).isEqualTo(200 * MS);
    }

    @Test
    void allPagesDoneMeansOnlyFinishIsLeft() {
        AdaptivePoller p = new AdaptivePoller(policy);
        p.nextDelay(0, 10, 0);
        assertThat(p.nextDelay(10, 10, 50 * MS)).isEqualTo(100_000);
    }

    @Test
    void boundsAreChecked() {
        assertThatThrownBy(() -> new PollPolicy(0, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PollPolicy(10, 5)).isInstanceOf(IllegalArgumentException.class);
    }
}
