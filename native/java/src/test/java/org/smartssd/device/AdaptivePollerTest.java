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
        // 500 pages in 10 ms: 0.05 pages/us; 500 left -> 10 ms to go -> wait 5 ms
        assertThat(p.nextDelay(500, 1000, 10 * MS)).isEqualTo(5 * MS);
        assertThat(p.pagesPerSecond()).isCloseTo(50_000.0, org.assertj.core.data.Offset.offset(1e-6));
        // next 200 pages took 5 ms: rate 0.04 pages/us; smoothed 0.045 pages/us; 300 left
        // -> 6.6667 ms -> wait 3.3333 ms
        long d = p.nextDelay(700, 1000, 15 * MS);
        assertThat(d).isBetween(3_333_000L, 3_334_000L);
    }

    @Test
    void neverWaitsMoreThanTwiceTheSpanTheRateWasMeasuredOver() {
        AdaptivePoller p = new AdaptivePoller(policy);
        p.nextDelay(0, 65_536, 0);
        // a scan's first poll waited 0.83 ms for its first slice and saw 128 pages: at that
        // rate 65,408 pages take 424 ms, but the next poll comes after 1.66 ms, not 200 ms
        long now = 830_000;
        long d = p.nextDelay(128, 65_536, now);
        assertThat(d).isEqualTo(1_660_000);
        // then 1,000 pages a millisecond: each wait at most twice the last span, until half
        // the time left is shorter
        long pages = 128;
        long[] expect = {3_320_000, 6_640_000, 13_280_000, 0};
        for (long e : expect) {
            now += d;
            pages += d / 1000;
            d = p.nextDelay(pages, 65_536, now);
            if (e != 0) {
                assertThat(d).isEqualTo(e);
            }
        }
        // 25,028 pages done at 25.73 ms: the smoothed rate is still below 1 page/us, so half
        // the time the 40,508 pages left take is more than 20.25 ms, and now less than twice
        // the last span (26.56 ms)
        assertThat(d).isBetween(20_254_000L, 26_559_999L);
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
