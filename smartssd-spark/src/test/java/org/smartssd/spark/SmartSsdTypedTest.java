package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DOUBLE, FLOAT, DATE, TIMESTAMP, DECIMAL(p,s) and NULLs in several columns, written with
 * {@code format("smartssd")} (the derived layout: typed fields and a null bitmap) and read
 * back, filtered and aggregated by the drive; every answer against Spark's own over the
 * source DataFrame in memory (NULLs skipped, NaN above every double, -0.0 = 0.0, a LONG
 * sum's overflow as under Spark 4's default {@code spark.sql.ansi.enabled=true}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SmartSsdTypedTest {
    static final String SOURCE = "SELECT id, "
            + "CASE WHEN id % 7 = 0 THEN NULL WHEN id % 31 = 0 THEN CAST('NaN' AS DOUBLE) "
            + "WHEN id % 37 = 0 THEN CAST('Infinity' AS DOUBLE) "
            + "WHEN id % 41 = 0 THEN CAST('-Infinity' AS DOUBLE) WHEN id % 43 = 0 THEN -0.0D "
            + "ELSE (id % 401 - 200) / 4.0D END AS d, "
            + "CASE WHEN id % 5 = 1 THEN NULL ELSE CAST((id % 101 - 50) / 2.0D AS FLOAT) END AS f, "
            + "CASE WHEN id % 6 = 2 THEN NULL "
            + "ELSE date_add(DATE'1500-01-01', CAST(id * 37 % 200000 AS INT)) END AS dt, "
            + "CASE WHEN id % 9 = 3 THEN NULL "
            + "ELSE timestamp_micros(id * 1234567891 - 500000000000000) END AS ts, "
            + "CASE WHEN id % 4 = 3 THEN NULL "
            + "ELSE CAST((id % 100000 - 50000) / 7 AS DECIMAL(12,3)) END AS dec, "
            + "CASE WHEN id % 10 = 0 THEN NULL ELSE id * 1000003 - 7 END AS n, "
            + "CASE WHEN id % 3 = 0 THEN NULL ELSE (id % 801 - 400) / 8.0D END AS g "
            + "FROM range(0, 6000, 1, 3)";

    SparkSession spark;
    String path;

    @BeforeAll
    void setUp() throws Exception {
        spark = SparkDrive.get().spark;
        // not cached: an in-memory relation's batch pruning by column statistics does not
        // follow Spark's NaN = NaN
        spark.sql(SOURCE).createOrReplaceTempView("typed_ref");
        path = "smartssd://" + SparkDrive.DRIVE + "/typed/t";
        spark.sql(SOURCE).write().format("smartssd").save(path);
        spark.read().format("smartssd").load(path).createOrReplaceTempView("typed");
        // the other reader of plain reads (rows or columnar batches)
        spark.read().format("smartssd")
                .option("columnar", String.valueOf(!ReadOptions.COLUMNAR_DEFAULT)).load(path)
                .createOrReplaceTempView("typed_other");
        // the same pushed work by the tasklets' host versions (HostTasklet)
        spark.read().format("smartssd").option("placement", "host").load(path)
                .createOrReplaceTempView("typed_host");
    }

    private List<String> rows(String sql, String t) {
        return SparkDrive.sortedRows(spark, sql, t);
    }

    private static String executed(Dataset<Row> df) {
        return df.queryExecution().executedPlan().toString();
    }

    @Test
    void roundTripKeepsEveryTypeAndNull() {
        Dataset<Row> back = spark.table("typed");
        assertThat(back.schema()).isEqualTo(spark.table("typed_ref").schema());
        assertThat(back.schema().toDDL()).isEqualTo("id BIGINT NOT NULL,d DOUBLE,f FLOAT,"
                + "dt DATE,ts TIMESTAMP,dec DECIMAL(12,3),n BIGINT,g DOUBLE");
        List<String> expected = rows("SELECT * FROM {t}", "typed_ref");
        assertThat(rows("SELECT * FROM {t}", "typed")).isEqualTo(expected);
        assertThat(rows("SELECT * FROM {t}", "typed_other")).isEqualTo(expected);
        // the source has what the test is about
        assertThat(rows("SELECT count(*) FROM {t} WHERE isnan(d)", "typed").get(0))
                .isNotEqualTo("[0]");
        assertThat(rows("SELECT count(*) FROM {t} WHERE d = 0 AND CAST(d AS STRING) = '-0.0'", "typed_ref")
                .get(0)).isNotEqualTo("[0]");
        assertThat(rows("SELECT count(*) FROM {t} WHERE dt < DATE'1582-10-15'", "typed").get(0))
                .isNotEqualTo("[0]");
    }

    static Stream<String> filters() {
        return Stream.of(
                "SELECT id FROM {t} WHERE d > 5",
                "SELECT id FROM {t} WHERE d IS NULL",
                "SELECT id FROM {t} WHERE NOT (d > 5)",
                "SELECT id, d FROM {t} WHERE d IS NOT NULL AND NOT (d < -10)",
                "SELECT id FROM {t} WHERE d = CAST('NaN' AS DOUBLE)",
                "SELECT id FROM {t} WHERE d = 0.0D",
                "SELECT id FROM {t} WHERE d >= CAST('Infinity' AS DOUBLE)",
                "SELECT id FROM {t} WHERE d <=> NULL OR d < -45",
                "SELECT id FROM {t} WHERE d IN (1.25D, -0.5D) OR f IN (3.5F, -2F)",
                "SELECT id FROM {t} WHERE f < 0",
                "SELECT id FROM {t} WHERE NOT (f >= 10 OR d > 5)",
                "SELECT id FROM {t} WHERE dt >= DATE'1970-01-01' AND dt < DATE'2100-01-01'",
                "SELECT id FROM {t} WHERE NOT (dt > DATE'1600-01-01')",
                "SELECT id FROM {t} WHERE ts < TIMESTAMP'1990-01-01 00:00:00'",
                "SELECT id FROM {t} WHERE ts IS NULL OR ts > TIMESTAMP'2000-06-01 12:00:00'",
                "SELECT id FROM {t} WHERE dec <= 12.5",
                "SELECT id FROM {t} WHERE dec = 714.286 OR dec > 7000",
                "SELECT id FROM {t} WHERE NOT (n > 5000000) OR d IS NULL",
                "SELECT id FROM {t} WHERE n IS NOT NULL AND g IS NULL AND id < 100",
                "SELECT id, n, dt, f FROM {t} WHERE n > 100 OR n IS NULL");
    }

    static Stream<String> filterCases() {
        return TestTier.everyNthUnlessFull(filters(), 2);
    }

    @ParameterizedTest
    @MethodSource("filterCases")
    void pushedPredicatesMatchSpark(String sql) {
        Dataset<Row> df = spark.sql(sql.replace("{t}", "typed"));
        assertThat(executed(df)).as(sql).contains("tasklet: filter")
                .doesNotContain("PushedFilters: []");
        List<String> expected = rows(sql, "typed_ref");
        assertThat(rows(sql, "typed")).as(sql).isEqualTo(expected);
        assertThat(rows(sql, "typed_host")).as("on the host: %s", sql).isEqualTo(expected);
    }

    static Stream<String> aggregates() {
        return Stream.of(
                "SELECT sum(n), min(n), max(n), avg(n), count(n) FROM {t}",
                "SELECT sum(g), min(g), max(g), avg(g), count(g) FROM {t}",
                "SELECT min(d), max(d), count(d) FROM {t}",
                "SELECT sum(d) FROM {t}",
                "SELECT sum(f), min(f), max(f), avg(f), count(f) FROM {t}",
                "SELECT min(dt), max(dt), count(dt) FROM {t}",
                "SELECT min(ts), max(ts) FROM {t}",
                "SELECT min(dec), max(dec), count(dec) FROM {t}",
                "SELECT sum(n), count(n) FROM {t} WHERE d > 0",
                "SELECT max(g) FROM {t} WHERE g < 0 AND n IS NOT NULL",
                "SELECT sum(n) FROM {t} WHERE n < 0");
    }

    @ParameterizedTest
    @MethodSource("aggregates")
    void pushedAggregatesMatchSpark(String sql) {
        Dataset<Row> df = spark.sql(sql.replace("{t}", "typed"));
        assertThat(executed(df)).as(sql).contains("tasklet: group-aggregate")
                .contains("PushedAggregates: [");
        List<String> expected = rows(sql, "typed_ref");
        assertThat(rows(sql, "typed")).as(sql).isEqualTo(expected);
        assertThat(rows(sql, "typed_host")).as("on the host: %s", sql).isEqualTo(expected);
    }

    @Test
    void topNKeepsNullsAndNegativeZeroOfWholeRecords() {
        String sql = "SELECT id, d, n, dt FROM {t} WHERE d IS NULL OR d = 0 "
                + "ORDER BY id DESC LIMIT 30";
        assertThat(executed(spark.sql(sql.replace("{t}", "typed"))))
                .contains("PushedTopN: ORDER BY [id DESC");
        assertThat(rows(sql, "typed")).isEqualTo(rows(sql, "typed_ref"));
        // a nullable sort key stays in Spark, which orders its NULLs
        String byG = "SELECT id, g FROM {t} ORDER BY g LIMIT 10";
        assertThat(executed(spark.sql(byG.replace("{t}", "typed")))).doesNotContain("PushedTopN");
        // ASC puts NULLs first: ten rows of NULL g (which ten is Spark's choice)
        assertThat(spark.sql(byG.replace("{t}", "typed")).collectAsList())
                .hasSize(10).allMatch(r -> r.isNullAt(1));
    }

    @Test
    void aggregatesTheDriveCannotTakeStayInSpark() {
        // COUNT(*) beside a nullable value, GROUP BY a nullable key, SUM of a DECIMAL
        for (String sql : List.of("SELECT count(*), max(d) FROM {t}",
                "SELECT dt, count(*) FROM {t} GROUP BY dt",
                "SELECT sum(dec) FROM {t}")) {
            Dataset<Row> df = spark.sql(sql.replace("{t}", "typed"));
            assertThat(executed(df)).as(sql).doesNotContain("PushedAggregates");
            assertThat(rows(sql, "typed")).as(sql).isEqualTo(rows(sql, "typed_ref"));
        }
    }

    @Test
    void aLongSumPastItsRangeFollowsTheAnsiSetting() throws Exception {
        String big = "smartssd://" + SparkDrive.DRIVE + "/typed/big";
        String src = "SELECT CAST(4000000000000000000 AS BIGINT) + id AS b FROM range(10)";
        spark.sql(src).write().format("smartssd").save(big);
        spark.read().format("smartssd").load(big).createOrReplaceTempView("big");
        spark.sql(src).createOrReplaceTempView("big_ref");
        String sql = "SELECT sum(b) FROM {t}";
        assertThat(spark.conf().get("spark.sql.ansi.enabled")).isEqualTo("true");
        assertThat(executed(spark.sql(sql.replace("{t}", "big"))))
                .contains("PushedAggregates: [SUM(b)]");
        assertThatThrownBy(() -> rows(sql, "big_ref")).hasStackTraceContaining("overflow");
        assertThatThrownBy(() -> rows(sql, "big")).hasStackTraceContaining("overflow");
        spark.conf().set("spark.sql.ansi.enabled", "false");
        try {
            assertThat(executed(spark.sql(sql.replace("{t}", "big"))))
                    .contains("PushedAggregates: [SUM(b)]");
            assertThat(rows(sql, "big")).isEqualTo(rows(sql, "big_ref"));
        } finally {
            spark.conf().unset("spark.sql.ansi.enabled");
        }
    }

    @Test
    void aNullIntoAFieldWithoutAFlagIsRefusedClearly() {
        String p = "smartssd://" + SparkDrive.DRIVE + "/typed/noflag";
        assertThatThrownBy(() -> spark.sql("SELECT IF(id = 3, NULL, id) AS x FROM range(5)")
                .write().format("smartssd").option("layout", "x:i64@0").save(p))
                .hasStackTraceContaining("column 'x' is NULL in a row, and its field has no "
                        + "null flag");
        assertThatThrownBy(() -> spark.sql("SELECT CAST(id AS DECIMAL(30,2)) AS x FROM range(5)")
                .write().format("smartssd").save(p))
                .hasStackTraceContaining("DECIMAL(P,S) up to P = 18");
    }
}
