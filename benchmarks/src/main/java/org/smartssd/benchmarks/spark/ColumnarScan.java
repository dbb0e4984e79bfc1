package org.smartssd.benchmarks.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.smartssd.benchmarks.SuiteArgs;
import org.smartssd.benchmarks.kang.Csv;
import org.smartssd.loganalyzer.LogAnalyzer;
import org.smartssd.loganalyzer.WorldCupRecord;

/**
 * The connector's plain read (nothing pushed but columns) as rows against columnar batches
 * ({@code columnar} false / true), over the same file in one run: scans of one, two and all
 * columns, each version run in turn, the median wall clock kept, the answers compared.
 * Writes {@code columnar.csv}. Usage: {@code ColumnarScan --out DIR [--entries N]
 * [--sizes 32,256] [--runs R] [--seed S]}.
 */
public final class ColumnarScan {
    static final List<String> QUERIES = List.of(
            "SELECT sum(size), count(*) FROM %s",
            "SELECT region, type, count(*) FROM %s GROUP BY region, type",
            "SELECT sum(timestamp), sum(clientID), sum(objectID), sum(size), sum(method), "
                    + "sum(status), sum(type), sum(server), sum(region), sum(statusCode) FROM %s");

    private ColumnarScan() {
    }

    public static void main(String[] args) throws Exception {
        SuiteArgs opts = SuiteArgs.parse(args, new SuiteArgs(null, 2_000_000, List.of(32, 256),
                1998, 5));
        Path out = opts.out();
        long entries = opts.entries();
        int runs = opts.runs();
        List<Integer> sizes = opts.sizes();
        Files.createDirectories(out);
        Path work = Files.createTempDirectory("columnar-scan-");
        boolean same = true;
        try {
            Path trace = work.resolve("wc.bin");
            SparkSuite.writeTrace(trace, entries, opts.seed());
            int max = sizes.stream().mapToInt(Integer::intValue).max().orElseThrow();
            try (LogAnalyzer la = LogAnalyzer.embedded(work.resolve("drive"),
                    LogAnalyzer.capacityFor(entries * max), null);
                 Csv csv = new Csv(out.resolve("columnar.csv"), "entry_size", "entries",
                         "query", "row_wall_s", "columnar_wall_s", "row_over_columnar",
                         "same_answer")) {
                SparkSession spark = la.spark().session();
                for (int es : sizes) {
                    LogAnalyzer.DriveFile f = la.load(trace, WorldCupRecord.BYTES, es, null);
                    for (boolean c : new boolean[] {false, true}) {
                        spark.read().format("smartssd").option("layout", "wc98")
                                .option("recordSize", String.valueOf(es))
                                .option("pushDownPredicate", "false")
                                .option("pushDownAggregate", "false")
                                .option("pushDownLimit", "false").option("pushDownTopN", "false")
                                .option("columnar", String.valueOf(c))
                                .load(f.path().toString())
                                .createOrReplaceTempView(c ? "t_columnar" : "t_rows");
                    }
                    for (String q : QUERIES) {
                        List<Long> rows = new ArrayList<>();
                        List<Long> cols = new ArrayList<>();
                        List<Row> a = run(spark, q, "t_rows", null);
                        List<Row> b = run(spark, q, "t_columnar", null);
                        boolean eq = sorted(a).equals(sorted(b));
                        same &= eq;
                        for (int r = 0; r < runs; r++) {
                            run(spark, q, "t_rows", rows);
                            run(spark, q, "t_columnar", cols);
                        }
                        double rw = median(rows) / 1e9;
                        double cw = median(cols) / 1e9;
                        csv.row(es, entries, String.format(q, "t").replace(",", ";"), rw, cw,
                                rw / cw, eq);
                        System.out.println(String.format(Locale.ROOT,
                                "%3d B x %d: rows %.3f s, columnar %.3f s, rows/columnar %.2fx, "
                                        + "answers %s: %s", es, entries, rw, cw, rw / cw,
                                eq ? "equal" : "DIFFER", String.format(q, "t")));
                    }
                    la.remove(f);
                }
            }
        } finally {
            SuiteArgs.deleteTree(work);
        }
        System.exit(same ? 0 : 7);
    }

    private static List<Row> run(SparkSession spark, String q, String view, List<Long> wall) {
        long t0 = System.nanoTime();
        List<Row> r = spark.sql(String.format(q, view)).collectAsList();
        if (wall != null) {
            wall.add(System.nanoTime() - t0);
        }
        return r;
    }

    private static List<String> sorted(List<Row> rows) {
        return rows.stream().map(Row::toString).sorted().toList();
    }

    private static double median(List<Long> v) {
        List<Long> s = new ArrayList<>(v);
        s.sort(null);
        return s.get(s.size() / 2);
    }
}
