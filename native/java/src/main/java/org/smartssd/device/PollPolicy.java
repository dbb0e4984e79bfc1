package org.smartssd.device;

import java.time.Duration;

/**
 * Bounds for adaptive tasklet polling. The interval between polls follows the progress rate
 * the drive reports (see {@link AdaptivePoller}); these bounds keep it between a floor that
 * spares the link and a ceiling that keeps completion latency and progress reports fresh.
 */
public record PollPolicy(long minNanos, long maxNanos) {
    /** 50 µs to 200 ms: a one-sector command costs about 200 µs on the link (Kang Fig. 6.7). */
    public static final PollPolicy DEFAULT =
            new PollPolicy(Duration.ofNanos(50_000).toNanos(), Duration.ofMillis(200).toNanos());

    public PollPolicy {
        if (minNanos <= 0 || maxNanos < minNanos) {
            throw new IllegalArgumentException("poll bounds must satisfy 0 < min <= max, got "
                    + minNanos + ".." + maxNanos + " ns");
        }
    }

    public static PollPolicy of(Duration min, Duration max) {
        return new PollPolicy(min.toNanos(), max.toNanos());
    }
}
