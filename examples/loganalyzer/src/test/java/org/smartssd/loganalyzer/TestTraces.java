package org.smartssd.loganalyzer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Small generated traces for the tests, and their answers computed in the test, independently
 * of the code under test: plain loops over the raw bytes, the region and type read by offset,
 * the ranking by a sort.
 */
public final class TestTraces {
    private TestTraces() {
    }

    public static byte[] bytes(long records, long seed, int entrySize) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            new TraceGenerator(TraceGenerator.Options.of(records, seed, entrySize))
                    .write(out, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** region -> requests. */
    public static Map<Integer, Long> q1(byte[] trace, int entrySize) {
        Map<Integer, Long> m = new TreeMap<>();
        for (int off = 0; off + entrySize <= trace.length; off += entrySize) {
            int region = (trace[off + 19] & 0xff) >> 5;
            m.merge(region, 1L, Long::sum);
        }
        return m;
    }

    /** region -> [type, count] of its top 5 types, count descending, then type ascending. */
    public static Map<Integer, List<List<Long>>> q2(byte[] trace, int entrySize) {
        Map<Integer, Map<Integer, Long>> counts = new TreeMap<>();
        for (int off = 0; off + entrySize <= trace.length; off += entrySize) {
            int region = (trace[off + 19] & 0xff) >> 5;
            int type = trace[off + 18] & 0xff;
            counts.computeIfAbsent(region, r -> new TreeMap<>()).merge(type, 1L, Long::sum);
        }
        Map<Integer, List<List<Long>>> out = new TreeMap<>();
        counts.forEach((region, byType) -> {
            List<List<Long>> l = new ArrayList<>();
            byType.forEach((t, c) -> l.add(List.of((long) t, c)));
            l.sort(Comparator.<List<Long>>comparingLong(x -> -x.get(1))
                    .thenComparingLong(x -> x.get(0)));
            out.put(region, List.copyOf(l.subList(0, Math.min(5, l.size()))));
        });
        return out;
    }

    /** The answer's Q2 rows as [type, count] pairs, for comparison with {@link #q2}. */
    public static Map<Integer, List<List<Long>>> rows(Answer a) {
        Map<Integer, List<List<Long>>> out = new TreeMap<>();
        a.topTypes().forEach((r, l) -> out.put(r, l.stream()
                .map(tc -> List.of((long) tc.type(), tc.count())).toList()));
        return out;
    }
}
