package org.smartssd.loganalyzer;

import java.util.ArrayList;
import java.util.List;

/**
 * The ranking of Q2: per region the {@value #N} file types with the most requests, ties to
 * the smaller type code, so every client ranks alike. Types with no request are not ranked.
 */
public final class TopTypes {
    public static final int N = 5;

    private TopTypes() {
    }

    /** The top N of {@code counts} (index = type code). */
    public static List<TypeCount> of(long[] counts) {
        List<TypeCount> all = new ArrayList<>();
        for (int t = 0; t < counts.length; t++) {
            if (counts[t] > 0) {
                all.add(new TypeCount(t, counts[t]));
            }
        }
        all.sort((a, b) -> a.count() != b.count() ? Long.compare(b.count(), a.count())
                : Integer.compare(a.type(), b.type()));
        return List.copyOf(all.subList(0, Math.min(N, all.size())));
    }
}
