package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.IsNotNull;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Parquet written by pyarrow and DuckDB (src/test/python/write_parquet.py, run here with the
 * venv of bin/ensure-pyspark) and by Spark, copied onto {@code smartssd://} and read with
 * {@code format("smartssd")}: every answer equals Spark's own Parquet reader over the same
 * bytes, and every plan says what went into the drive (its pushed filters: those Spark offers
 * that the drive's filter language holds, {@link PushRule}) or why a row group stayed on the
 * host. Then seeded random queries over every table ({@code -Dsmartssd.pq.seed},
 * {@code -Dsmartssd.pq.queries}); a failure names the seed and the query.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("full")
class OtherWritersParquetTest {
    private static final Path MODULE = Path.of(System.getProperty("user.dir"));
    private static final Path WRITER = MODULE.resolve("src/test/python/write_parquet.py");
    private static final Path ENSURE = MODULE.resolve("../bin/ensure-pyspark").normalize();
    private static final String ROOT = "smartssd://" + SparkDrive.DRIVE + "/writers/";
    private static final long SEED = Long.getLong("smartssd.pq.seed", 20261129L);
    private static final int QUERIES = Integer.getInteger("smartssd.pq.queries", 60);

    @TempDir
    static Path dir;
    private SparkSession spark;
    /** Table name → its path on the drive, pyarrow's and DuckDB's files and Spark's tables. */
    private final Map<String, String> tables = new LinkedHashMap<>();

    @BeforeAll
    void writeFiles() throws Exception {
        spark = SparkDrive.get().spark;
        Path out = dir.resolve("written");
        run(List.of(venv().resolve("bin/python").toString(), WRITER.toString(), out.toString()),
                300);
        List<Path> files;
        try (Stream<Path> s = Files.list(out)) {
            files = s.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
        }
        assertThat(files).as("the files %s wrote", WRITER).hasSize(6);
        for (Path f : files) {
            String name = f.getFileName().toString().replace(".parquet", "");
            tables.put(name, SparkDrive.get().put("/writers/" + name + ".parquet",
                    Files.readAllBytes(f)));
        }
        // Spark's writer over the same rows, timestamps as INT64 micros (the drive's)
        String old = spark.conf().get("spark.sql.parquet.outputTimestampType");
        spark.conf().set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS");
        try {
            for (String codec : List.of("snappy", "uncompressed")) {
                spark.read().parquet(out.resolve("pyarrow_none.parquet").toString())
                        .repartition(2).write().mode("overwrite").option("compression", codec)
                        .option("parquet.block.size", 32 * 1024).parquet(ROOT + "spark_" + codec);
                tables.put("spark_" + codec, ROOT + "spark_" + codec);
            }
        } finally {
            spark.conf().set("spark.sql.parquet.outputTimestampType", old);
        }
    }

    /** The venv of bin/ensure-pyspark with pyarrow and DuckDB in it; fails saying how to make it. */
    private static Path venv() throws Exception {
        Path said = dir.resolve("venv.txt");
        Process p = new ProcessBuilder(ENSURE.toString(), "--check").redirectErrorStream(true)
                .redirectOutput(said.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(ENSURE + " --check did not finish in 60 s");
        }
        if (p.exitValue() != 0) {
            fail("pyarrow and DuckDB write this test's files, from the venv that " + ENSURE
                    + " installs (pyspark, smartssd-spark/requirements*.txt); it is missing or "
                    + "incomplete. Run:\n    " + ENSURE + "\nthen this test again.");
        }
        return Path.of(Files.readString(said, StandardCharsets.UTF_8).trim());
    }

    private static void run(List<String> cmd, int seconds) throws Exception {
        Path log = dir.resolve("writer.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(String.join(" ", cmd) + " did not finish in " + seconds + " s:\n"
                    + Files.readString(log));
        }
        if (p.exitValue() != 0) {
            fail(String.join(" ", cmd) + " exited " + p.exitValue() + ":\n"
                    + Files.readString(log));
        }
    }

    // ---- what a query answers, and what its plan says ----

    /** One query over one table: both answers, the connector's scan and Spark's own. */
    private record Run(List<String> got, List<String> want, String description,
                       List<Filter> pushed, List<Filter> offered, List<String> returned) {
    }

    private Run run(String sql, String path) {
        spark.read().format("smartssd").load(path).createOrReplaceTempView("pqw_drive");
        spark.read().parquet(path).createOrReplaceTempView("pqw_spark");
        Dataset<Row> drive = spark.sql(sql.replace("{t}", "pqw_drive"));
        Dataset<Row> ref = spark.sql(sql.replace("{t}", "pqw_spark"));
        String description = null;
        List<Filter> pushed = null;
        List<String> returned = List.of();
        for (SparkPlan leaf : leaves(drive)) {
            if (leaf instanceof BatchScanExec b && b.scan() instanceof ParquetScan s) {
                description = s.description();
                pushed = List.of(s.pushedFilters());
                returned = CollectionConverters.asJava(b.output()).stream()
                        .map(a -> a.name()).toList();
            }
        }
        if (description == null) {
            // a WHERE that can hold for no row (s < 1 AND s = 5): Spark reads nothing
            assertThat(leaves(ref)).as("Spark's own plan of %s scans no file either", sql)
                    .noneMatch(l -> l instanceof FileSourceScanExec);
        }
        // the filters Spark's own source offers its reader: the same translation of the same
        // optimized conjuncts as the ones offered to the connector
        List<Filter> offered = new ArrayList<>();
        for (SparkPlan leaf : leaves(ref)) {
            if (leaf instanceof FileSourceScanExec f) {
                offered.addAll(CollectionConverters.asJava(f.pushedDownFilters()));
            }
        }
        return new Run(rows(drive), rows(ref), description, pushed, offered, returned);
    }

    private Run runNamed(String sql, String path, String what) {
        try {
            return run(sql, path);
        } catch (Exception e) { // Spark's job failures are checked, thrown unchecked
            throw new AssertionError(what + ": " + e.getMessage(), e);
        }
    }

    private static List<SparkPlan> leaves(Dataset<Row> d) {
        SparkPlan p = d.queryExecution().executedPlan();
        if (p instanceof AdaptiveSparkPlanExec a) {
            p = a.inputPlan(); // a plan with a shuffle: its scans are in AQE's input plan
        }
        return CollectionConverters.asJava(p.collectLeaves());
    }

    private static List<String> rows(Dataset<Row> d) {
        List<String> out = new ArrayList<>();
        for (Row r : d.collectAsList()) {
            out.add(r.toString());
        }
        out.sort(null);
        return out;
    }

    private static int field(String description, String name) {
        String v = description.replaceAll("(?s).*[\\[ ]" + name + "=(\\d+),.*", "$1");
        return Integer.parseInt(v);
    }

    /**
     * The plan of {@code r}: pushed, the filters offered that the drive's language holds, in
     * their order, as EXPLAIN shows them; every row group in the drive, or all on the host
     * with {@code hostReason}. The IS NOT NULLs that Spark infers from the other conjuncts
     * may differ (Spark's own source is offered some that the connector is not: `id < 2500`
     * brings IsNotNull(id) to the one only), so they are checked apart: each pushed one was
     * offered to Spark's own source too.
     */
    private static void assertPlan(Run r, String hostReason, String what) {
        if (r.description == null) {
            return; // no scan at all (run() checked Spark's own plan has none either)
        }
        List<Filter> pushable = r.offered.stream().filter(PushRule::holds).toList();
        assertThat(r.description).as(what).contains(
                "pushedFilters=" + Arrays.toString(r.pushed.toArray()));
        assertThat(r.pushed.stream().filter(f -> !(f instanceof IsNotNull)).toList()).as(what)
                .isEqualTo(pushable.stream().filter(f -> !(f instanceof IsNotNull)).toList());
        assertThat(pushable).as(what).containsAll(r.pushed);
        int groups = field(r.description, "rowGroups");
        if (hostReason == null || groups == 0) { // none left after pruning: none to place
            assertThat(r.description).as(what).contains("drive=" + groups + ",")
                    .doesNotContain("host(");
        } else {
            assertThat(r.description).as(what).contains("drive=0,")
                    .contains("host(" + groups + "): ").contains(hostReason);
        }
    }

    /**
     * Why the whole of table {@code t} stays on the host for a query needing {@code columns},
     * whose scan returns {@code returned} (the filters the drive holds are the scan's alone:
     * a FLOAT/DOUBLE column only filtered on is not returned, and stays in the drive).
     */
    private static String hostReason(String table, List<String> columns, List<String> returned) {
        for (String c : returned) {
            if (c.equals("score") || c.equals("ratio")) {
                return "column " + c + ": FLOAT/DOUBLE returned as order keys";
            }
        }
        if (table.equals("pyarrow_zstd") && !columns.isEmpty()) {
            return "codec ZSTD";
        }
        return null;
    }

    // ---- fixed queries over every writer's files ----

    private static final List<String> COLUMNS = List.of("id", "k", "s", "day", "ts", "tsu",
            "price", "amount", "name", "note", "score", "ratio", "flag");

    private record Fixed(String sql, List<String> columns) {
    }

    private static final List<Fixed> FIXED = List.of(
            new Fixed("SELECT id, name, price, day FROM {t} WHERE k = 3",
                    List.of("id", "name", "price", "day", "k")),
            new Fixed("SELECT id, note, tsu FROM {t} WHERE note LIKE 'note-0012%' "
                    + "OR (k IS NULL AND NOT flag)", List.of("id", "note", "tsu", "k", "flag")),
            new Fixed("SELECT id, s, amount FROM {t} WHERE k IN (1, 4) AND id < 2500 "
                    + "AND day <> DATE '1999-03-01' AND amount > -12345.6789",
                    List.of("id", "s", "amount", "k", "day")),
            new Fixed("SELECT k, count(*), sum(price), min(day), max(amount) FROM {t} "
                    + "WHERE name IS NOT NULL GROUP BY k", List.of("k", "price", "day",
                    "amount", "name")),
            new Fixed("SELECT id, name FROM {t} WHERE name = 'smart3' OR name LIKE '%0' "
                    + "OR name LIKE '%llo%'", List.of("id", "name")),
            new Fixed("SELECT count(*) FROM {t} WHERE s >= -1000 AND s < 1000", List.of("s")),
            new Fixed("SELECT id, score, ratio FROM {t} WHERE score > 0.25 OR ratio < -50.0",
                    List.of("id", "score", "ratio")),
            new Fixed("SELECT * FROM {t} WHERE id % 97 = 5", COLUMNS));

    @Test
    void everyWritersFilesAnswerAsSparksOwnReader() {
        assertThat(tables.keySet()).containsExactly("duckdb_none", "duckdb_snappy",
                "pyarrow_none", "pyarrow_snappy", "pyarrow_v2", "pyarrow_zstd", "spark_snappy",
                "spark_uncompressed");
        for (Map.Entry<String, String> t : tables.entrySet()) {
            for (Fixed q : FIXED) {
                String what = q.sql + " over " + t.getKey();
                Run r = runNamed(q.sql, t.getValue(), what);
                assertThat(r.got).as(what).isEqualTo(r.want);
                assertThat(r.want).as("%s selects rows", what).isNotEmpty();
                assertPlan(r, hostReason(t.getKey(), q.columns, r.returned), what);
            }
        }
    }

    @Test
    void randomQueriesAnswerAsSparksOwnReader() {
        RandomQueries gen = new RandomQueries(SEED, spark, tables);
        for (int i = 0; i < QUERIES; i++) {
            RandomQueries.Query q = gen.next();
            String what = String.format("seed %d (-Dsmartssd.pq.seed=%d), query %d over %s: %s",
                    SEED, SEED, i, q.table(), q.sql());
            Run r = runNamed(q.sql(), tables.get(q.table()), what);
            assertThat(r.got).as(what).isEqualTo(r.want);
            assertPlan(r, hostReason(q.table(), q.columns(), r.returned), what);
        }
    }

    /** Keeps the suite's drive roomy for the other tests. */
    @org.junit.jupiter.api.AfterAll
    void removeTables() throws IOException {
        SparkDrive.get().fs().delete(new org.apache.hadoop.fs.Path(ROOT), true);
    }
}
