package org.smartssd.device;

/**
 * Chooses the wait before the next progress poll from the pages the drive reports done.
 * It keeps a smoothed rate (pages per second of host time between polls) and waits half the
 * estimated time to completion, so it polls rarely while much remains and closes in as the
 * end nears; but never more than twice the time since the last poll, the span the rate was
 * measured over (a run's first pages come slower than the rest: a poll that waited 0.8 ms for
 * a scan's first slice saw 128 of 65,536 pages done and, without that bound, waited 200 ms
 * for a scan that ended 80 ms later). Without progress since the last poll it backs off
 * geometrically. All waits stay within the {@link PollPolicy} bounds. Pure: the caller
 * supplies the clock.
 */
final class AdaptivePoller {
    private final PollPolicy policy;
    private boolean started;
    private long lastPages;
    private long lastNanos;
    private long lastDelay;
    private double ratePerNano;  // smoothed pages per nanosecond; 0 until progress was seen

    AdaptivePoller(PollPolicy policy) {
        this.policy = policy;
    }

    /**
     * @param pagesDone  pages processed so far, as the poll reported
     * @param pagesTotal pages to process in total (0 when not yet known)
     * @param nowNanos   host monotonic time of the poll
     * @return nanoseconds to wait before the next poll
     */
    long nextDelay(long pagesDone, long pagesTotal, long nowNanos) {
        long delay;
        if (!started) {
            started = true;
            delay = policy.minNanos();
        } else {
            long dp = pagesDone - lastPages;
            long dt = nowNanos - lastNanos;
            if (dp > 0 && dt > 0) {
                double r = (double) dp / dt;
                ratePerNano = ratePerNano == 0 ? r : 0.5 * ratePerNano + 0.5 * r;
                long remaining = pagesTotal - pagesDone;
                if (pagesTotal <= 0) {
                    delay = lastDelay; // rate known but no end known: keep pace
                } else if (remaining <= 0) {
                    delay = policy.minNanos(); // only finish() is left
                } else {
                    delay = (long) Math.min(Long.MAX_VALUE, remaining / ratePerNano / 2);
                    delay = Math.min(delay, dt > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * dt);
                }
            } else {
                delay = lastDelay > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : lastDelay * 2;
            }
        }
        delay = Math.max(policy.minNanos(), Math.min(policy.maxNanos(), delay));
        lastPages = pagesDone;
        lastNanos = nowNanos;
        lastDelay = delay;
        return delay;
    }

    /** Smoothed progress rate in pages per second (0 before any progress was seen). */
    double pagesPerSecond() {
        return ratePerNano * 1e9;
    }
}
