package org.smartssd.benchmarks.kang;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kang suite's Fig. 6.8 part still runs: at a tiny size, fig6_8.csv has a row for every
 * query x entry size x version, and the three versions of each query answer alike (the same
 * fingerprint, which must differ between Q1 and Q2 since they answer different questions).
 */
class LogAnalyzerSuiteTest {
    private static final List<Integer> SIZES = List.of(32, 256);
    private static final List<String> VERSIONS = List.of("host-normal", "host-optimized",
            "device");

    @TempDir
    Path out;

    @Test
    void fig68HasEveryRowWithIdenticalAnswers() throws Exception {
        LogAnalyzerSuite.Summary s = LogAnalyzerSuite.run(out, 1500, SIZES, 7);

        List<Map<String, String>> rows = read(out.resolve("fig6_8.csv"));
        assertThat(rows).hasSize(2 * SIZES.size() * VERSIONS.size());
        assertThat(s.fig68Rows()).isEqualTo(rows.size());
        Set<String> keys = new HashSet<>();
        for (Map<String, String> r : rows) {
            keys.add(r.get("query") + "/" + r.get("entry_size") + "/" + r.get("version"));
            assertThat(Long.parseLong(r.get("entries"))).isEqualTo(1500);
            assertThat(Double.parseDouble(r.get("modelled_s"))).isPositive();
        }
        for (String q : List.of("Q1", "Q2")) {
            for (int es : SIZES) {
                for (String v : VERSIONS) {
                    assertThat(keys).contains(q + "/" + es + "/" + v);
                }
            }
            Set<String> answers = rows.stream().filter(r -> r.get("query").equals(q))
                    .map(r -> r.get("answer")).collect(Collectors.toSet());
            assertThat(answers).as("%s answers across versions and sizes", q).hasSize(1);
        }
        assertThat(rows.stream().map(r -> r.get("answer")).distinct()).hasSize(2);
        assertThat(rows).allMatch(r -> r.get("identical").equals("true"));
        assertThat(s.identical()).isTrue();
        // host versions move the whole file over the link, the device version only its groups
        for (int es : SIZES) {
            long hostBytes = linkBytes(rows, "Q1", es, "host-normal");
            assertThat(hostBytes).isGreaterThanOrEqualTo(1500L * es);
            assertThat(linkBytes(rows, "Q1", es, "device")).isLessThan(hostBytes);
        }
        assertThat(read(out.resolve("fig6_10.csv"))).hasSize(SIZES.size() * VERSIONS.size() * 3);
    }

    private static long linkBytes(List<Map<String, String>> rows, String q, int es, String v) {
        return rows.stream().filter(r -> r.get("query").equals(q)
                        && r.get("entry_size").equals(String.valueOf(es)) && r.get("version").equals(v))
                .mapToLong(r -> Long.parseLong(r.get("link_bytes"))).findFirst().orElseThrow();
    }

    private static List<Map<String, String>> read(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        String[] head = lines.get(0).split(",");
        return lines.stream().skip(1).map(l -> {
            String[] f = l.split(",", -1);
            assertThat(f).as("columns of %s", l).hasSize(head.length);
            return Arrays.stream(head).collect(Collectors.toMap(h -> h,
                    h -> f[Arrays.asList(head).indexOf(h)]));
        }).toList();
    }
}
