package org.smartssd.benchmarks.kang;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.smartssd.benchmarks.SuiteArgs;
import org.smartssd.device.HostPowerProfile;
import org.smartssd.device.ModelCounters;
import org.smartssd.loganalyzer.CompareTable;
import org.smartssd.loganalyzer.LogAnalyzer;
import org.smartssd.loganalyzer.Engine;
import org.smartssd.loganalyzer.Mode;
import org.smartssd.loganalyzer.Query;
import org.smartssd.loganalyzer.RunResult;
import org.smartssd.loganalyzer.TraceGenerator;
import org.smartssd.loganalyzer.WorldCupRecord;

/**
 * Kang ch. 6 Figs. 6.8-6.10 on an embedded emulated drive (kang-smartssd), from one synthetic
 * WorldCup98 trace loaded at each entry size ([Kang 2014, §6.5.3, pp. 78-83]):
 * <ul>
 *   <li>{@code fig6_8.csv}: Q1 and Q2, three versions, modelled time (the log analyzer's
 *       RunResult) and the answer's fingerprint;</li>
 *   <li>{@code fig6_9.csv}: the machine's CPU user / system / idle during each run, from
 *       /proc/stat (measured, so it includes whatever else the machine was doing);</li>
 *   <li>{@code fig6_10.csv}: Q1's wr, pause and exec phases, modelled power and energy: wr is
 *       the load's drive time (its clock, at least its link busy time) with the host busy
 *       (assumption: the host pushes the data set, idle + busy watts), pause Kang's 5 s at idle, exec the run's
 *       ExecEnergy;</li>
 *   <li>{@code wallclock.csv}: host-normal wall-clock over the device version's at the
 *       largest entry size (the goal is 5x on 7,000,000 x 256 B).</li>
 * </ul>
 * Usage: {@code LogAnalyzerSuite --out DIR [--entries N] [--sizes 32,64,128,256] [--seed S]}
 */
public final class LogAnalyzerSuite {
    /** Kang's pause between phases ([Kang 2014, §6.5.3.3, Fig. 6.10, p. 83]). */
    public static final double PAUSE_S = 5.0;
    /** The wall-clock goal of issue 5: device at least this much faster than host-normal. */
    public static final double WALL_GOAL = 5.0;

    /** What a suite run found. */
    public record Summary(int fig68Rows, boolean identical, List<String> tables) {
    }

    private LogAnalyzerSuite() {
    }

    public static void main(String[] args) throws Exception {
        SuiteArgs a = SuiteArgs.parse(args, new SuiteArgs(null, 20_000,
                List.of(32, 64, 128, 256), 1998, 1));
        Summary s = run(a.out(), a.entries(), a.sizes(), a.seed());
        s.tables().forEach(System.out::println);
        CompareTable.legend().forEach(System.out::println);
        System.out.println(s.fig68Rows() + " rows in fig6_8.csv; answers "
                + (s.identical() ? "identical across versions" : "DIFFER between versions"));
        System.exit(s.identical() ? 0 : 7);
    }

    /** Runs Figs. 6.8-6.10 and the wall-clock ratio into {@code out}. */
    public static Summary run(Path out, long entries, List<Integer> sizes, long seed)
            throws IOException, InterruptedException {
        if (entries < 1) {
            throw new IllegalArgumentException("--entries must be at least 1, not " + entries);
        }
        if (sizes.isEmpty()) {
            throw new IllegalArgumentException("no entry sizes");
        }
        Files.createDirectories(out);
        Path work = Files.createTempDirectory("kang-suite-");
        try {
            return run(out, work, entries, sizes, seed);
        } finally {
            SuiteArgs.deleteTree(work);
        }
    }

    private static Summary run(Path out, Path work, long entries, List<Integer> sizes, long seed)
            throws IOException, InterruptedException {
        Path trace = work.resolve("wc_synthetic.bin");
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(trace), 1 << 20)) {
            new TraceGenerator(TraceGenerator.Options.of(entries, seed, WorldCupRecord.BYTES))
                    .write(o, null);
        }
        int max = sizes.stream().mapToInt(Integer::intValue).max().orElseThrow();
        HostPowerProfile power = HostPowerProfile.fromSystemProperties();
        boolean identical = true;
        int rows = 0;
        List<String> tables = new ArrayList<>();
        try (LogAnalyzer la = LogAnalyzer.embedded(work.resolve("drive"),
                LogAnalyzer.capacityFor(entries * max), null);
             Csv f68 = new Csv(out.resolve("fig6_8.csv"), "query", "entry_size", "version",
                     "entries", "data_bytes", "modelled_s", "link_s", "host_cpu_s", "isp_s",
                     "link_bytes", "wall_s", "answer", "identical");
             Csv f69 = new Csv(out.resolve("fig6_9.csv"), "query", "entry_size", "version",
                     "wall_s", "user_pct", "system_pct", "idle_pct", "ticks");
             Csv f610 = new Csv(out.resolve("fig6_10.csv"), "entry_size", "version", "phase",
                     "seconds", "host_w", "device_w", "host_j", "device_j");
             Csv wc = new Csv(out.resolve("wallclock.csv"), "query", "entry_size", "entries",
                     "data_bytes", "host_normal_wall_s", "device_wall_s", "ratio", "goal")) {
            for (int es : sizes) {
                ModelCounters a = counters(la);
                LogAnalyzer.DriveFile file = la.load(trace, WorldCupRecord.BYTES, es, null);
                ModelCounters b = counters(la);
                // the drive's clock, or the link's busy time when the clock lags its timelines
                double wrS = Math.max(b.nowNs() - a.nowNs(), b.linkBusyNs() - a.linkBusyNs())
                        / 1e9;
                double wrDevJ = (b.energyNandProgramNj() - a.energyNandProgramNj()
                        + b.energyNandEraseNj() - a.energyNandEraseNj()
                        + b.energyNandReadNj() - a.energyNandReadNj()
                        + b.energyLinkNj() - a.energyLinkNj()
                        + b.energyIspNj() - a.energyIspNj()) / 1e9;
                for (Query q : Query.values()) {
                    Map<Mode, RunResult> runs = new EnumMap<>(Mode.class);
                    for (Mode m : Engine.MAPREDUCE.modes()) {
                        ProcStat s0 = ProcStat.read();
                        RunResult r = la.run(q, m, file);
                        ProcStat d = ProcStat.read().minus(s0);
                        if (!r.modelled()) {
                            throw new IOException("the drive has no timing model");
                        }
                        runs.put(m, r);
                        double t = Math.max(1, d.total());
                        f69.row(q, es, m.cliName(), r.wallNs() / 1e9, 100 * d.user() / t,
                                100 * d.system() / t, 100 * d.idle() / t, d.total());
                    }
                    List<RunResult> list = new ArrayList<>(runs.values());
                    boolean same = CompareTable.identical(list);
                    identical &= same;
                    tables.addAll(CompareTable.render(list, file.path().toString()));
                    tables.add("");
                    for (RunResult r : list) {
                        f68.row(q, es, r.mode().cliName(), r.records(), file.bytes(),
                                r.modelledNs() / 1e9, r.linkNs() / 1e9, r.hostCpuNs() / 1e9,
                                r.ispNs() / 1e9, r.linkBytes(), r.wallNs() / 1e9,
                                CompareTable.fingerprint(r.answer()), same);
                        rows++;
                        if (q == Query.Q1) {
                            phases(f610, power, es, r, wrS, wrDevJ);
                        }
                    }
                    if (es == max) {
                        RunResult hn = runs.get(Mode.HOST_NORMAL);
                        RunResult dv = runs.get(Mode.DEVICE);
                        double ratio = hn.wallNs() / (double) dv.wallNs();
                        wc.row(q, es, file.entries(), file.bytes(), hn.wallNs() / 1e9,
                                dv.wallNs() / 1e9, ratio, WALL_GOAL);
                        tables.add(String.format(Locale.ROOT,
                                "wall-clock %s, %d x %d B (%.1f MB): host-normal %.2f s, device "
                                        + "%.2f s: %.2fx (goal >= %.0fx on 7,000,000 x 256 B)",
                                q, file.entries(), es, file.bytes() / 1e6, hn.wallNs() / 1e9,
                                dv.wallNs() / 1e9, ratio, WALL_GOAL));
                    }
                }
                la.remove(file);
            }
        }
        return new Summary(rows, identical, tables);
    }

    private static void phases(Csv csv, HostPowerProfile p, int es, RunResult r, double wrS,
                               double wrDevJ) {
        double hostW = p.idleWatts() + p.busyWatts();
        csv.row(es, r.mode().cliName(), "wr", wrS, hostW, wrS > 0 ? wrDevJ / wrS : 0.0,
                hostW * wrS, wrDevJ);
        csv.row(es, r.mode().cliName(), "pause", PAUSE_S, p.idleWatts(), 0.0,
                p.idleWatts() * PAUSE_S, 0.0);
        double s = Math.max(1, r.modelledNs()) / 1e9;
        csv.row(es, r.mode().cliName(), "exec", s, r.energy().hostJoules() / s,
                r.energy().deviceJoules() / s, r.energy().hostJoules(),
                r.energy().deviceJoules());
    }

    private static ModelCounters counters(LogAnalyzer la) throws IOException {
        var dev = la.device();
        return dev.modelCounters().orElseThrow(() -> new IOException(dev.uri()
                + " has no timing and energy model: the suite needs an emulated drive"));
    }

}
