package org.smartssd.loganalyzer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The answer of a query, one row per region that had requests, ordered by region code.
 * Q1 rows hold the region's request count; Q2 rows its top file types, best first. Two
 * answers are equal when every row is.
 */
public record Answer(Query query, SortedMap<Integer, Long> accesses,
                     SortedMap<Integer, List<TypeCount>> topTypes) {
    public Answer {
        accesses = Collections.unmodifiableSortedMap(new TreeMap<>(accesses));
        TreeMap<Integer, List<TypeCount>> t = new TreeMap<>();
        topTypes.forEach((k, v) -> t.put(k, List.copyOf(v)));
        topTypes = Collections.unmodifiableSortedMap(t);
        if (query == Query.Q1 ? !topTypes.isEmpty() : !accesses.isEmpty()) {
            throw new IllegalArgumentException(query + " answers hold only "
                    + (query == Query.Q1 ? "access counts" : "top types"));
        }
    }

    /** Q1 from per-region counts (index = region code); regions without requests are left out. */
    public static Answer q1(long[] perRegion) {
        TreeMap<Integer, Long> m = new TreeMap<>();
        for (int r = 0; r < perRegion.length; r++) {
            if (perRegion[r] > 0) {
                m.put(r, perRegion[r]);
            }
        }
        return new Answer(Query.Q1, m, new TreeMap<>());
    }

    /** Q2 from per-region, per-type counts ([region][type]). */
    public static Answer q2(long[][] perRegionType) {
        TreeMap<Integer, List<TypeCount>> m = new TreeMap<>();
        for (int r = 0; r < perRegionType.length; r++) {
            List<TypeCount> top = TopTypes.of(perRegionType[r]);
            if (!top.isEmpty()) {
                m.put(r, top);
            }
        }
        return new Answer(Query.Q2, new TreeMap<>(), m);
    }

    /** Q2 from rows already ranked. */
    public static Answer q2(Map<Integer, List<TypeCount>> rows) {
        return new Answer(Query.Q2, new TreeMap<>(), new TreeMap<>(rows));
    }

    /** One line per region: "Santa Clara  123456" or "Paris  image 900, html 80, ...". */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        if (query == Query.Q1) {
            accesses.forEach((r, n) -> out.add(String.format("%-12s %d", Region.name(r), n)));
        } else {
            topTypes.forEach((r, l) -> out.add(String.format("%-12s %s", Region.name(r),
                    l.stream().map(TypeCount::toString).collect(Collectors.joining(", ")))));
        }
        return out;
    }

    /** A short form for a table cell. */
    public String summary() {
        if (query == Query.Q1) {
            return accesses.entrySet().stream().map(e -> abbrev(e.getKey()) + "=" + e.getValue())
                    .collect(Collectors.joining(" "));
        }
        return topTypes.entrySet().stream().map(e -> abbrev(e.getKey()) + ":" + e.getValue()
                .stream().map(tc -> FileType.name(tc.type())).collect(Collectors.joining("/")))
                .collect(Collectors.joining(" "));
    }

    private static String abbrev(int region) {
        String n = Region.name(region);
        return region < Region.TRACE_REGIONS ? n.replace(" ", "").substring(0, 2) : "r" + region;
    }
}
