package org.smartssd.benchmarks.spark;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.smartssd.benchmarks.SuiteArgs;
import org.smartssd.benchmarks.kang.Csv;
import org.smartssd.loganalyzer.Answer;
import org.smartssd.loganalyzer.CompareTable;
import org.smartssd.loganalyzer.LogAnalyzer;
import org.smartssd.loganalyzer.Mode;
import org.smartssd.loganalyzer.Query;
import org.smartssd.loganalyzer.RunResult;
import org.smartssd.loganalyzer.TraceGenerator;
import org.smartssd.loganalyzer.WorldCupRecord;
import org.smartssd.loganalyzer.spark.SparkQueries;

/**
 * Q1 and Q2 of the log analyzer through Spark SQL ({@code local[2]}) at each entry size, in
 * one run, three ways over the same records: Spark over {@code smartssd://} without
 * pushdown, with pushdown, and over a Parquet copy on {@code file://}. The log analyzer's
 * MapReduce device version runs too, as the oracle the three answers must equal.
 *
 * <p>Writes {@code spark.csv}: per query, entry size and version the wall clock (this
 * machine's, the median of the runs), the modelled time and its parts (the log analyzer's
 * model: the drive's link and ISP busy time from its counters, plus the host CPU model), the
 * link bytes (the drive's count) and the connector's CustomMetrics (linkBytes,
 * deviceTimeNs, deviceEnergyNj), the exec-phase energy, and the answer's fingerprint.
 * The Parquet copy has no drive and so no modelled figures: it is reported as measured.
 *
 * <p>Usage: {@code SparkSuite --out DIR [--entries N] [--sizes 32,64,128,256] [--runs R]
 * [--seed S]}; exit code 7 when any answer differs.
 */
public final class SparkSuite {
    /** The versions, in table order. */
    static final String NO_PUSHDOWN = "spark-no-pushdown";
    static final String PUSHDOWN = "spark-pushdown";
    static final String PARQUET = "spark-parquet";
    static final String ORACLE = "mapreduce-device";
    /** Entries of the untimed warm-up (JIT, Spark's code generation, the drive's first run). */
    static final int WARM_UP_ENTRIES = 20_000;

    private SparkSuite() {
    }

    public static void main(String[] args) throws Exception {
        SuiteArgs a = SuiteArgs.parse(args, new SuiteArgs(null, 200_000,
                List.of(32, 64, 128, 256), 1998, 1));
        Path out = a.out();
        Files.createDirectories(out);
        Path work = Files.createTempDirectory("spark-suite-");
        boolean same;
        try {
            same = run(out, work, a.entries(), a.sizes(), a.runs(), a.seed());
        } finally {
            SuiteArgs.deleteTree(work);
        }
        System.out.println("answers " + (same ? "identical across the three Spark versions and "
                + "the log analyzer's device version" : "DIFFER (see spark.csv)"));
        System.exit(same ? 0 : 7);
    }

    /** One measured version of one query at one size. */
    private record Row(String version, RunResult run, long wallNs, Answer answer) {
    }

    static boolean run(Path out, Path work, long entries, List<Integer> sizes, int runs,
                       long seed) throws IOException, InterruptedException {
        Path trace = work.resolve("wc_synthetic.bin");
        writeTrace(trace, entries, seed);
        Path warm = work.resolve("wc_warm.bin");
        writeTrace(warm, Math.min(entries, WARM_UP_ENTRIES), seed + 1);
        int max = sizes.stream().mapToInt(Integer::intValue).max().orElseThrow();
        boolean identical = true;
        try (LogAnalyzer la = LogAnalyzer.embedded(work.resolve("drive"),
                LogAnalyzer.capacityFor(entries * max + WARM_UP_ENTRIES * 256L), null);
             Csv csv = new Csv(out.resolve("spark.csv"), "query", "entry_size", "version",
                     "entries", "data_bytes", "wall_s", "modelled_s", "link_s", "isp_s",
                     "host_cpu_s", "link_bytes", "metric_link_bytes", "metric_device_s",
                     "metric_device_j", "host_j", "device_j", "scan_rows", "answer",
                     "identical")) {
            SparkQueries spark = la.spark();
            System.err.println("== warm-up: " + Math.min(entries, WARM_UP_ENTRIES)
                    + " entries, every version once, untimed");
            LogAnalyzer.DriveFile w = la.load(warm, WorldCupRecord.BYTES, 32, null);
            String warmParquet = work.resolve("parquet-warm").toUri().toString();
            spark.writeParquet(w.path().toString(), 32, warmParquet);
            for (Query q : Query.values()) {
                measure(la, q, w, warmParquet, 1);
            }
            la.remove(w);
            for (int es : sizes) {
                System.err.println("== " + entries + " entries at " + es + " B: load, Parquet "
                        + "copy, then Q1 and Q2 four ways");
                LogAnalyzer.DriveFile f = la.load(trace, WorldCupRecord.BYTES, es, null);
                Path pq = work.resolve("parquet-e" + es);
                spark.writeParquet(f.path().toString(), es, pq.toUri().toString());
                long parquetBytes = treeBytes(pq);
                for (Query q : Query.values()) {
                    List<Row> rows = measure(la, q, f, pq.toUri().toString(), runs);
                    Answer oracle = rows.get(0).answer();
                    boolean same = rows.stream().allMatch(r -> r.answer().equals(oracle));
                    identical &= same;
                    for (Row r : rows) {
                        RunResult x = r.run();
                        long bytes = r.version().equals(PARQUET) ? parquetBytes : f.bytes();
                        if (x == null) {
                            csv.row(q, es, r.version(), f.entries(), bytes, r.wallNs() / 1e9,
                                    "", "", "", "", 0, 0, "", "", "", "", "",
                                    CompareTable.fingerprint(r.answer()), same);
                            continue;
                        }
                        SparkQueries.Result s = x.spark();
                        csv.row(q, es, r.version(), f.entries(), bytes, r.wallNs() / 1e9,
                                x.modelledNs() / 1e9, x.linkNs() / 1e9, x.ispNs() / 1e9,
                                x.hostCpuNs() / 1e9, x.linkBytes(),
                                s == null ? "" : s.linkBytes(),
                                s == null ? "" : s.deviceTimeNs() / 1e9,
                                s == null ? "" : s.deviceEnergyNj() / 1e9,
                                x.energy().hostJoules(), x.energy().deviceJoules(),
                                s == null ? "" : s.scanRows(),
                                CompareTable.fingerprint(r.answer()), same);
                    }
                    System.err.println(summary(q, es, rows, same));
                }
                la.remove(f);
                SuiteArgs.deleteTree(pq);
            }
        }
        return identical;
    }

    /**
     * The oracle (the MapReduce device version), then Spark without pushdown, with it, and
     * over Parquet, each {@code runs} times in turn; the run with the median wall clock is
     * kept (modelled figures are the same in every run).
     */
    private static List<Row> measure(LogAnalyzer la, Query q, LogAnalyzer.DriveFile f,
                                     String parquet, int runs)
            throws IOException, InterruptedException {
        List<List<Row>> all = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            all.add(new ArrayList<>());
        }
        for (int k = 0; k < runs; k++) {
            RunResult o = la.run(q, Mode.DEVICE, f);
            all.get(0).add(new Row(ORACLE, o, o.wallNs(), o.answer()));
            RunResult n = la.run(q, Mode.SPARK_NO_PUSHDOWN, f);
            all.get(1).add(new Row(NO_PUSHDOWN, n, n.wallNs(), n.answer()));
            RunResult p = la.run(q, Mode.SPARK_PUSHDOWN, f);
            all.get(2).add(new Row(PUSHDOWN, p, p.wallNs(), p.answer()));
            long t0 = System.nanoTime();
            SparkQueries.Result r = la.spark().runParquet(q, parquet);
            all.get(3).add(new Row(PARQUET, null, System.nanoTime() - t0, r.answer()));
        }
        List<Row> rows = new ArrayList<>();
        for (List<Row> l : all) {
            List<Row> sorted = new ArrayList<>(l);
            sorted.sort(Comparator.comparingLong(Row::wallNs));
            rows.add(sorted.get(sorted.size() / 2));
        }
        return rows;
    }

    private static String summary(Query q, int es, List<Row> rows, boolean same) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%s %3d B:", q, es));
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "  %s wall %.2f s", r.version(),
                    r.wallNs() / 1e9));
            if (r.run() != null) {
                b.append(String.format(Locale.ROOT, " modelled %.4f s", r.run().modelledNs()
                        / 1e9));
            }
        }
        return b.append(same ? "  answers identical" : "  answers DIFFER").toString();
    }

    /** A synthetic WorldCup98 trace of 20-byte records (TraceGenerator). */
    public static void writeTrace(Path trace, long entries, long seed) throws IOException {
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(trace), 1 << 20)) {
            new TraceGenerator(TraceGenerator.Options.of(entries, seed, WorldCupRecord.BYTES))
                    .write(o, null);
        }
    }

    private static long treeBytes(Path dir) throws IOException {
        try (var s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).filter(p -> p.getFileName().toString()
                    .endsWith(".parquet")).mapToLong(p -> p.toFile().length()).sum();
        }
    }

}
