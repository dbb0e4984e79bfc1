package org.smartssd.spark;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The test tier this JVM runs in (docs/TESTING.md): surefire sets {@code smartssd.test.tier}
 * to {@code full} under {@code bin/test --full} (Maven profile {@code full}), else to
 * {@code fast}.
 */
final class TestTier {
    static final boolean FULL = "full".equals(System.getProperty("smartssd.test.tier"));

    private TestTier() {
    }

    /**
     * The cases of a long query list that this tier runs: all of them in the full tier; in
     * the fast tier every {@code n}th, from the first. Each query of those lists runs three
     * Spark jobs; the lists are ordered by kind (filters, aggregates, top-N), so a stride
     * keeps every kind in the fast tier.
     */
    static <T> Stream<T> everyNthUnlessFull(Stream<T> cases, int n) {
        if (FULL) {
            return cases;
        }
        AtomicInteger i = new AtomicInteger();
        return cases.filter(c -> i.getAndIncrement() % n == 0);
    }
}
