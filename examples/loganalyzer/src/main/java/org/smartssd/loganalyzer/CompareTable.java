package org.smartssd.loganalyzer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32;

import org.smartssd.loganalyzer.model.HostCostModel;

/**
 * The comparison of the three versions of one query over one file: whether they answered
 * alike, and per version wall time, modelled time (and its parts), link bytes and exec-phase
 * joules. Modelled figures are deterministic; wall time is this machine's.
 */
public final class CompareTable {
    private CompareTable() {
    }

    /** True when every run answered what the first did. */
    public static boolean identical(List<RunResult> runs) {
        return runs.stream().allMatch(r -> r.answer().equals(runs.get(0).answer()));
    }

    /** A short fingerprint of an answer, to show equal answers as equal. */
    public static String fingerprint(Answer a) {
        CRC32 c = new CRC32();
        for (String l : a.lines()) {
            c.update(l.getBytes(StandardCharsets.UTF_8));
            c.update('\n');
        }
        return String.format(Locale.ROOT, "%08x", c.getValue());
    }

    /** The report: heading, the answer's lines, the table, the verdict. */
    public static List<String> render(List<RunResult> runs, String file) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("nothing to compare");
        }
        RunResult first = runs.get(0);
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "%s (%s), %d-byte entries, %d entries (%.1f MiB) in %s",
                first.query(), first.query().description(), first.entrySize(), first.records(),
                first.records() * (double) first.entrySize() / (1 << 20), file));
        for (String l : first.answer().lines()) {
            out.add("  " + l);
        }
        out.add(String.format(Locale.ROOT, "  %-17s %-8s %8s %11s %9s %9s %9s %10s %9s %9s %9s",
                "version", "answer", "wall s", "modelled s", "link ms", "cpu ms", "isp ms",
                "link MiB", "host J", "device J", "total J"));
        // the host's best version: host-optimized, or Spark without pushdown
        RunResult opt = runs.stream().filter(r -> r.mode() == Mode.HOST_OPTIMIZED).findFirst()
                .orElse(runs.stream().filter(r -> r.mode() == Mode.SPARK_NO_PUSHDOWN).findFirst()
                        .orElse(null));
        for (RunResult r : runs) {
            out.add(String.format(Locale.ROOT,
                    "  %-17s %-8s %8.2f %11.4f %9.2f %9.2f %9.2f %10.3f %9.3f %9.4f %9.3f%s",
                    r.mode().cliName(), fingerprint(r.answer()), r.wallNs() / 1e9,
                    r.modelledNs() / 1e9, r.linkNs() / 1e6, r.hostCpuNs() / 1e6, r.ispNs() / 1e6,
                    r.linkBytes() / (double) (1 << 20), r.energy().hostJoules(),
                    r.energy().deviceJoules(), r.energy().totalJoules(),
                    opt == null || r == opt || !r.modelled() ? ""
                            : String.format(Locale.ROOT,
                                    "  %.2fx time, %.0f%% energy of %s",
                                    r.modelledNs() / (double) opt.modelledNs(),
                                    100 * r.energy().totalJoules() / opt.energy().totalJoules(),
                                    opt.mode().cliName())));
        }
        out.add(identical(runs) ? "  answers: identical across " + runs.size() + " versions"
                : "  answers: DIFFERENT (see the fingerprints)");
        return out;
    }

    /** The legend printed under the tables. */
    public static List<String> legend() {
        return List.of(
                "modelled s = link ms + cpu ms (host versions: the drive's link busy time plus the",
                "  host CPU model, " + HostCostModel.IO_NS_PER_BYTE + " ns/B + "
                        + HostCostModel.Q1_NS_PER_RECORD + "/" + HostCostModel.Q2_NS_PER_RECORD
                        + " ns per record (Q1/Q2) + " + HostCostModel.MAP_OUTPUT_NS_PER_RECORD
                        + " ns per map output) or + isp ms (device: ISP core busy time).",
                "host J: 44 W idle + 35 W busy over a host version's modelled time, idle only for",
                "  the device version; device J: the drive's ISP, NAND read and link energy.",
                "wall s is this machine's and not modelled; see examples/loganalyzer/README.md.");
    }
}
