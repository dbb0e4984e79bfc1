package org.smartssd.fs.sscache;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Modification times for files written through the cache: the wall clock in ms, but never
 * the same value twice in this JVM, so two versions of a path written in one millisecond
 * have different versions ({@link FileVersion}).
 */
final class UniqueClock {
    private static final AtomicLong LAST = new AtomicLong();

    private UniqueClock() {
    }

    static long next() {
        return LAST.updateAndGet(last -> Math.max(last + 1, System.currentTimeMillis()));
    }
}
