package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Delimited text through the connector: each query answered through it with pushdown, with
 * every pushdown off, and by Spark's own text reader over the same bytes in a local file
 * ({@code spark.read.text}, the columns split and cast by Spark SQL), which must agree. The
 * lines hold NULLs of every kind (empty and unparsable numbers, numbers out of an INT,
 * missing columns, empty lines), and the small split size cuts lines at partition ends.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("full")
class SmartSsdTextTest {
    static final int LINES = 12_000;
    static final String LAYOUT = "id:i64, n:i32, name:string, k:i32";
    static final String[] NAMES = {"alpha", "beta", "gamma", "alp", "", "zeta x", "betamax"};

    SparkSession spark;
    String path;
    String tabPath;

    /** Lines {@code id,n,name,k} with every kind of NULL; ends without a terminator. */
    static String text(int lines, char sep, char lineSep, long seed) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            if (i > 0) {
                sb.append(lineSep);
            }
            int kind = r.nextInt(100);
            if (kind == 0) {
                continue; // an empty line: every column NULL but an empty id
            }
            sb.append(r.nextInt(50) == 0 ? 5_000_000_000_000L + i : i).append(sep);
            sb.append(kind < 5 ? "" : kind < 7 ? "x" + i : kind < 8 ? "3000000000"
                    : kind < 9 ? "-2147483648" : String.valueOf(r.nextInt(2001) - 1000));
            sb.append(sep).append(NAMES[r.nextInt(NAMES.length)]);
            if (kind % 10 != 3) { // some lines end before k
                sb.append(sep).append(r.nextInt(10));
            }
        }
        return sb.toString();
    }

    @BeforeAll
    void load() throws Exception {
        SparkDrive d = SparkDrive.get();
        spark = d.spark;
        String csv = text(LINES, ',', '\n', 11);
        String tab = text(LINES / 3, '\t', ';', 12);
        path = d.put("/text/t.csv", csv.getBytes(StandardCharsets.UTF_8));
        tabPath = d.put("/text/t.tsv", tab.getBytes(StandardCharsets.UTF_8));
        Path local = d.dir.resolve("t.csv");
        Files.writeString(local, csv);
        Path localTab = d.dir.resolve("t.tsv");
        Files.writeString(localTab, tab);

        // several partitions: cut the file's extents at 40 KiB, inside lines
        register("tx", reader(",").option("mapreduce.input.fileinputformat.split.maxsize",
                "40960"), path);
        register("tx1", reader(","), path);
        register("tt", reader("\\t").option("lineSep", ";")
                .option("mapreduce.input.fileinputformat.split.maxsize", "16384"), tabPath);
        reference("tx", local, "\n", ",");
        reference("tx1", local, "\n", ",");
        reference("tt", localTab, ";", "\t");
    }

    private org.apache.spark.sql.DataFrameReader reader(String sep) {
        return spark.read().format("smartssd").option("layout", LAYOUT).option("sep", sep);
    }

    private void register(String name, org.apache.spark.sql.DataFrameReader r, String p) {
        r.load(p).createOrReplaceTempView(name);
        r.option("pushDownPredicate", "false").option("pushDownAggregate", "false")
                .option("pushDownLimit", "false").option("pushDownTopN", "false").load(p)
                .createOrReplaceTempView(name + "_nopush");
    }

    private void reference(String name, Path local, String lineSep, String sep) {
        reference(spark, name, local, lineSep, sep);
    }

    /** Spark without the connector: its text reader, split and cast by Spark SQL. */
    static void reference(SparkSession spark, String name, Path local, String lineSep,
                          String sep) {
        spark.read().option("lineSep", lineSep).text(local.toString())
                .createOrReplaceTempView(name + "_raw");
        String regex = sep.equals("\t") ? "\\t" : sep;
        spark.sql("SELECT try_cast(try_element_at(c, 1) AS BIGINT) id, "
                + "try_cast(try_element_at(c, 2) AS INT) n, try_element_at(c, 3) name, "
                + "try_cast(try_element_at(c, 4) AS INT) k FROM (SELECT split(value, '" + regex
                + "', -1) c FROM " + name + "_raw)").createOrReplaceTempView(name + "_ref");
    }

    private List<String> rows(String sql, String t) {
        return SparkDrive.sortedRows(spark, sql, t);
    }

    private void assertSameAnswer(String sql, String table) {
        List<String> expected = rows(sql, table + "_ref");
        assertThat(expected).as("reference of %s", sql).isNotEmpty();
        assertThat(rows(sql, table)).as("pushed: %s", sql).isEqualTo(expected);
        assertThat(rows(sql, table + "_nopush")).as("not pushed: %s", sql).isEqualTo(expected);
    }

    static Stream<String> queries() {
        return Stream.of(
                "SELECT * FROM {t}",
                "SELECT name, k FROM {t}",
                "SELECT id, n FROM {t} WHERE n > 500",
                "SELECT id FROM {t} WHERE n = 7",
                "SELECT id FROM {t} WHERE n <> 7",
                "SELECT id FROM {t} WHERE n < -990 OR n >= 995",
                "SELECT id FROM {t} WHERE NOT (n < 0)",
                "SELECT id FROM {t} WHERE n IS NULL",
                "SELECT id, n FROM {t} WHERE n IS NOT NULL AND k = 3",
                "SELECT id FROM {t} WHERE k IS NULL",
                "SELECT id FROM {t} WHERE id IS NULL",
                "SELECT id FROM {t} WHERE n <=> 5",
                "SELECT id FROM {t} WHERE NOT (n <=> 5)",
                "SELECT id FROM {t} WHERE n <=> NULL",
                "SELECT id FROM {t} WHERE n IN (1, 2, 3)",
                "SELECT id FROM {t} WHERE n IN (1, NULL) OR k = 9",
                "SELECT id FROM {t} WHERE NOT (n IN (1, 2)) AND k = 1",
                "SELECT id FROM {t} WHERE n > 3000000000 OR k = 2",
                "SELECT id FROM {t} WHERE NOT (n > 3000000000)",
                "SELECT id FROM {t} WHERE n = -2147483648",
                "SELECT id FROM {t} WHERE id > 4000000000000",
                "SELECT id, name FROM {t} WHERE name = 'beta'",
                "SELECT id FROM {t} WHERE name <> 'beta'",
                "SELECT id FROM {t} WHERE name = ''",
                "SELECT id FROM {t} WHERE name IS NULL",
                "SELECT id FROM {t} WHERE name LIKE 'al%'",
                "SELECT id FROM {t} WHERE name LIKE '%ta' OR name LIKE '%a x'",
                "SELECT id FROM {t} WHERE name LIKE '%mm%'",
                "SELECT id FROM {t} WHERE NOT (name LIKE 'al%')",
                "SELECT id FROM {t} WHERE n % 7 = 1",
                "SELECT count(*) FROM {t}",
                "SELECT count(*) FROM {t} WHERE n > 0 AND name = 'gamma'",
                "SELECT count(n) FROM {t}",
                "SELECT count(n), sum(n), min(n), max(n) FROM {t}",
                "SELECT avg(n) FROM {t}",
                "SELECT sum(k), count(k) FROM {t} WHERE name LIKE 'b%'",
                "SELECT sum(n) FROM {t} WHERE id = -5",
                "SELECT min(id), max(id) FROM {t}",
                "SELECT count(*), sum(n) FROM {t}",
                "SELECT count(name) FROM {t}",
                "SELECT k, count(*), sum(n) FROM {t} GROUP BY k",
                "SELECT n FROM {t} ORDER BY n LIMIT 5",
                "SELECT n FROM {t} ORDER BY n DESC NULLS LAST LIMIT 5",
                "SELECT count(*) FROM (SELECT id FROM {t} WHERE n > 900 LIMIT 7)");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void textMatchesSparksReader(String sql) {
        assertSameAnswer(sql, "tx");
    }

    /** Where one partition makes a difference: complete aggregates, top-N, limits. */
    static Stream<String> onePartitionQueries() {
        return queries().filter(q -> q.contains("count(") || q.contains("sum(")
                || q.contains("max(") || q.contains("LIMIT") || q.contains("avg("));
    }

    @ParameterizedTest
    @MethodSource("onePartitionQueries")
    void onePartitionMatchesSparksReader(String sql) {
        assertSameAnswer(sql, "tx1");
    }

    /** Other separators: a subset covering strings, NULLs, aggregates and limits. */
    static Stream<String> separatorQueries() {
        List<String> all = queries().toList();
        return java.util.stream.IntStream.range(0, all.size()).filter(i -> i % 3 == 0)
                .mapToObj(all::get);
    }

    @ParameterizedTest
    @MethodSource("separatorQueries")
    void tabsAndOtherLineEndsMatchSparksReader(String sql) {
        assertSameAnswer(sql, "tt");
    }

    private String executed(Dataset<Row> df) {
        return df.queryExecution().executedPlan().toString();
    }

    @Test
    void linesAreCutAtPartitionEndsAsHadoopDoes() {
        Dataset<Row> df = spark.sql("SELECT * FROM tx");
        assertThat(df.rdd().getNumPartitions()).isGreaterThan(4);
        long lines = spark.sql("SELECT * FROM tx_ref").count();
        assertThat(lines).isGreaterThan(LINES - 2);
        assertThat(df.collectAsList()).hasSize((int) lines);
        assertThat(executed(df)).contains("layout: " + LAYOUT + " (text, sep ',', lineSep "
                + "'\\n', lines up to 4096 bytes)").contains("tasklet: filter");
    }

    @Test
    void filtersArePushedWithTheirNulls() {
        Dataset<Row> df = spark.sql("SELECT id FROM tx WHERE n > 500 AND name LIKE 'al%'");
        assertThat(executed(df)).contains("tasklet: filter").contains("n > 500")
                .contains("name LIKE 'al%'");
        Dataset<Row> udf = spark.sql("SELECT id FROM tx WHERE n % 7 = 1 AND k = 2");
        String plan = executed(udf);
        String pushed = plan.substring(plan.indexOf("PushedFilters: ["));
        pushed = pushed.substring(0, pushed.indexOf(']') + 1);
        assertThat(pushed).contains("k = 2").doesNotContain("%");
    }

    @Test
    void aggregatesWithoutGroupByArePushed() {
        Dataset<Row> one = spark.sql("SELECT count(n), sum(n), min(n), max(n) FROM tx1");
        assertThat(executed(one)).contains("partitions: 1,");
        assertThat(executed(one)).contains("tasklet: group-aggregate")
                .contains("PushedAggregates: [COUNT(n), SUM(n), MIN(n), MAX(n)]");
        assertThat(one.queryExecution().optimizedPlan().toString()).doesNotContain("Aggregate");
        Dataset<Row> star = spark.sql("SELECT count(*) FROM tx WHERE k = 4");
        assertThat(executed(star)).contains("PushedAggregates: [COUNT(*)]")
                .contains("k = 4");
    }

    @Test
    void whatTheDriveCannotDoOnTextStaysInSpark() {
        // GROUP BY would lose Spark's NULL group; COUNT(*) beside SUM(n) the lines where n
        // is NULL; top-N the NULLs that Spark orders
        for (String q : List.of("SELECT k, count(*) FROM tx GROUP BY k",
                "SELECT count(*), sum(n) FROM tx", "SELECT count(name) FROM tx")) {
            assertThat(executed(spark.sql(q))).as(q).doesNotContain("PushedAggregates")
                    .contains("tasklet: filter");
        }
        String topN = executed(spark.sql("SELECT n FROM tx1 ORDER BY n LIMIT 5"));
        assertThat(topN).doesNotContain("PushedTopN").contains("TakeOrderedAndProject");
    }

    @Test
    void badTextLayoutsFailAtAnalysis() {
        assertThatThrownBy(() -> reader(",").option("layout", "id:u32@0").load(path))
                .hasMessageContaining("bad text layout column 'id:u32@0'");
        assertThatThrownBy(() -> reader(",").option("layout", "a:i32, a:string").load(path))
                .hasMessageContaining("layout names column 'a' twice");
        assertThatThrownBy(() -> reader(",;").load(path))
                .hasMessageContaining("option 'sep' is one byte");
        assertThatThrownBy(() -> reader(",").option("lineSep", ",").load(path))
                .hasMessageContaining("options 'sep' and 'lineSep' are the same byte");
        assertThatThrownBy(() -> reader(",").option("maxLineLength", "0").load(path))
                .hasMessageContaining("option 'maxLineLength' is 1..65535 bytes");
        assertThatThrownBy(() -> spark.read().format("smartssd").option("layout", "wc98")
                .option("lineSep", ";").load(path))
                .hasMessageContaining("options 'lineSep' and 'maxLineLength' are for text");
        assertThatThrownBy(() -> reader(",").option("recordSize", "20").load(path))
                .hasMessageContaining("option 'recordSize' is for fixed-width records");
        assertThatThrownBy(() -> spark.sql("SELECT nosuch FROM tx").collect())
                .hasMessageContaining("nosuch");
    }

    @Test
    void aLineLongerThanTheLayoutAllowsFailsNamingTheRange() {
        Dataset<Row> df = reader(",").option("maxLineLength", "8").load(path);
        assertThatThrownBy(df::count).hasStackTraceContaining("run over " + path);
    }
}
