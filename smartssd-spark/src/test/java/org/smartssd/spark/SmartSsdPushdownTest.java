package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Queries over tables on an emulated drive, each answered three ways over the same bytes:
 * through the connector with pushdown, through it with every pushdown off, and by Spark over
 * rows decoded independently by the test ({@link SparkDrive}). The answers must be equal;
 * what was pushed is checked in the plans, as Spark's JDBC V2 suite checks it.
 *
 * <p>Tables: {@code wc} (WorldCup98, 20-byte records, several partitions), {@code wc1} (32-byte
 * records, one partition: complete pushdown), {@code mx} (strings, signed, 64-bit and bit
 * fields).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SmartSsdPushdownTest {
    static final int WC_RECORDS = 60_000;
    static final int WC1_RECORDS = 20_000;
    static final int MX_RECORDS = 20_000;

    SparkSession spark;
    String wcPath;
    String wc1Path;
    String mxPath;

    @BeforeAll
    void load() throws Exception {
        SparkDrive d = SparkDrive.get();
        spark = d.spark;
        byte[] wc = SparkDrive.wc98(WC_RECORDS, 20, 1);
        byte[] wc1 = SparkDrive.wc98(WC1_RECORDS, 32, 2);
        byte[] mx = SparkDrive.mixed(MX_RECORDS, 3);
        wcPath = d.put("/logs/wc", wc);
        wc1Path = d.put("/logs/wc1", wc1);
        mxPath = d.put("/data/mx", mx);

        // several partitions: cut the file's extents at 256 KiB
        register("wc", reader().option("layout", "wc98")
                .option("mapreduce.input.fileinputformat.split.maxsize", "262144"), wcPath);
        register("wc1", reader().option("layout", "wc98").option("recordSize", "32"), wc1Path);
        register("mx", reader().option("layout", SparkDrive.MIXED_LAYOUT)
                .option("recordSize", String.valueOf(SparkDrive.MIXED_RECORD)), mxPath);
        reference("wc", SparkDrive.wc98Rows(wc, 20), SparkDrive.WC98_DDL);
        reference("wc1", SparkDrive.wc98Rows(wc1, 32), SparkDrive.WC98_DDL);
        reference("mx", SparkDrive.mixedRows(mx), SparkDrive.MIXED_DDL);
        spark.udf().register("plusOne", (UDF1<Long, Long>) x -> x + 1, DataTypes.LongType);
    }

    private org.apache.spark.sql.DataFrameReader reader() {
        return spark.read().format("smartssd");
    }

    private void register(String name, org.apache.spark.sql.DataFrameReader r, String path) {
        r.load(path).createOrReplaceTempView(name);
        // without pushdown, the plain read the default does not use (rows or columnar), so
        // the matrix runs both readers
        r.option("pushDownPredicate", "false").option("pushDownAggregate", "false")
                .option("pushDownLimit", "false").option("pushDownTopN", "false")
                .option("columnar", String.valueOf(!ReadOptions.COLUMNAR_DEFAULT)).load(path)
                .createOrReplaceTempView(name + "_nopush");
    }

    private void reference(String name, List<Row> rows, String ddl) {
        spark.createDataFrame(rows, StructType.fromDDL(ddl)).createOrReplaceTempView(name
                + "_ref");
    }

    /** The rows of {@code sql} over table {@code t} (the text's {t}), sorted. */
    private List<String> rows(String sql, String t) {
        return SparkDrive.sortedRows(spark, sql, t);
    }

    private void assertSameAnswer(String sql, String table) {
        List<String> expected = rows(sql, table + "_ref");
        assertThat(rows(sql, table)).as("pushed: %s", sql).isEqualTo(expected);
        assertThat(rows(sql, table + "_nopush")).as("not pushed: %s", sql).isEqualTo(expected);
    }

    static Stream<String> wcQueries() {
        return Stream.of(
                "SELECT * FROM {t} WHERE size > 15000",
                "SELECT * FROM {t} WHERE method = 1",
                "SELECT timestamp, size FROM {t} WHERE method <> 1 AND type = 7",
                "SELECT clientID FROM {t} WHERE clientID < 20",
                "SELECT clientID FROM {t} WHERE clientID <= 20 OR clientID >= 4990",
                "SELECT objectID, region FROM {t} WHERE region = 3 AND statusCode > 60",
                "SELECT * FROM {t} WHERE size >= 4000000000",
                "SELECT * FROM {t} WHERE 19 > clientID",
                "SELECT timestamp FROM {t} WHERE type IN (1, 4, 12)",
                "SELECT timestamp FROM {t} WHERE type NOT IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)",
                "SELECT timestamp FROM {t} WHERE NOT (type IN (1, NULL)) ",
                "SELECT timestamp FROM {t} WHERE type IN (12, NULL)",
                "SELECT timestamp FROM {t} WHERE NOT (clientID < 4900 OR method = 0)",
                "SELECT timestamp FROM {t} WHERE type <=> 5 AND clientID < 100",
                "SELECT timestamp FROM {t} WHERE size IS NULL",
                "SELECT timestamp FROM {t} WHERE size IS NOT NULL AND clientID = 7",
                "SELECT timestamp FROM {t} WHERE size > -1 AND clientID = 8",
                "SELECT timestamp FROM {t} WHERE size < 5000000000 AND clientID = 9",
                "SELECT timestamp FROM {t} WHERE size = 1.5 OR clientID = 10",
                "SELECT timestamp FROM {t} WHERE clientID > 4998.5",
                "SELECT timestamp FROM {t} WHERE server >= 224 AND status < 3",
                "SELECT region, size FROM {t} WHERE timestamp < 893000300",
                "SELECT count(*) FROM {t}",
                "SELECT count(*), count(size), sum(size), min(size), max(size) FROM {t}",
                "SELECT avg(size), avg(clientID) FROM {t}",
                "SELECT region, count(*) FROM {t} GROUP BY region",
                "SELECT region, type, count(*) FROM {t} GROUP BY region, type",
                "SELECT region, type, method, count(*) FROM {t} GROUP BY region, type, method",
                "SELECT region, type, method, status, count(*), sum(size), max(size) FROM {t} "
                        + "GROUP BY region, type, method, status",
                "SELECT statusCode, method, region, min(size) FROM {t} WHERE size > 5000 "
                        + "GROUP BY statusCode, method, region",
                "SELECT region, type, method, status, server, count(*) FROM {t} "
                        + "GROUP BY region, type, method, status, server",
                "SELECT type, sum(size), min(size), max(size), avg(size) FROM {t} GROUP BY type",
                "SELECT method, count(*), sum(clientID) FROM {t} WHERE region = 2 GROUP BY method",
                "SELECT count(*) FROM {t} WHERE size > 10000",
                "SELECT max(timestamp) FROM {t} WHERE clientID = 4999 OR clientID = 0",
                "SELECT sum(size) FROM {t} WHERE clientID = 123456",
                "SELECT region, count(*) FROM {t} WHERE clientID = 123456 GROUP BY region",
                "SELECT statusCode, max(objectID) FROM {t} GROUP BY statusCode",
                "SELECT timestamp, size FROM {t} ORDER BY timestamp DESC LIMIT 7",
                "SELECT timestamp, type FROM {t} ORDER BY timestamp LIMIT 5",
                "SELECT size FROM {t} ORDER BY size DESC LIMIT 20",
                "SELECT timestamp, size FROM {t} WHERE type = 3 ORDER BY timestamp DESC LIMIT 4",
                "SELECT region, type, count(*) c FROM {t} GROUP BY region, type ORDER BY c DESC, "
                        + "region, type LIMIT 5",
                // the log analyzer's Q2: the top 5 file types per region, ties to the smaller
                "SELECT region, type, c FROM (SELECT region, type, count(*) c, row_number() OVER "
                        + "(PARTITION BY region ORDER BY count(*) DESC, type) rn FROM {t} "
                        + "GROUP BY region, type) WHERE rn <= 5",
                "SELECT * FROM {t} WHERE plusOne(size) = 101",
                "SELECT * FROM {t} WHERE size % 7 = 1 AND clientID < 100",
                "SELECT count(*) FROM {t} WHERE size % 7 = 1",
                "SELECT sum(size + 1) FROM {t}",
                "SELECT count(DISTINCT type) FROM {t}");
    }

    static Stream<String> wcCases() {
        return TestTier.everyNthUnlessFull(wcQueries(), 3);
    }

    @ParameterizedTest
    @MethodSource("wcCases")
    void wcMatchesSpark(String sql) {
        assertSameAnswer(sql, "wc");
    }

    /** The queries where one partition makes a difference: complete aggregates, top-N. */
    static Stream<String> onePartitionQueries() {
        return TestTier.everyNthUnlessFull(wcQueries().filter(q -> q.contains("count(")
                || q.contains("sum(") || q.contains("max(") || q.contains("ORDER BY")
                || q.contains("avg(")), 3);
    }

    /** Pushed only: the read without pushdown is the same code path as wc's. */
    @ParameterizedTest
    @MethodSource("onePartitionQueries")
    void onePartitionMatchesSpark(String sql) {
        assertThat(rows(sql, "wc1")).as("pushed: %s", sql).isEqualTo(rows(sql, "wc1_ref"));
    }

    static Stream<String> mxQueries() {
        return Stream.of(
                "SELECT * FROM {t} WHERE name = 'alpha\u0000'",
                "SELECT * FROM {t} WHERE name = 'alpha'",
                "SELECT count(*) FROM {t} WHERE name = 'beta'",
                "SELECT id, name FROM {t} WHERE name IN ('alp', 'beta', '') AND score > 900",
                "SELECT count(*) FROM {t} WHERE name <> 'alp'",
                "SELECT id, name FROM {t} WHERE endswith(name, 'p') AND score < -950",
                "SELECT id, length(name) FROM {t} WHERE contains(name, 'ta') AND score < -980",
                "SELECT id FROM {t} WHERE name <> 'zeta!!' AND score < -990",
                "SELECT id, name FROM {t} WHERE name IN ('beta\u0000\u0000', 'betamx') AND id < 500",
                "SELECT id FROM {t} WHERE startswith(name, 'alp') AND score > 990",
                "SELECT id FROM {t} WHERE name LIKE 'bet%' AND score > 995",
                "SELECT id FROM {t} WHERE contains(name, 'am') AND score < -995",
                "SELECT id FROM {t} WHERE name LIKE '%!!' AND score < -990",
                "SELECT id FROM {t} WHERE endswith(name, 'a\u0000') AND score > 990",
                "SELECT id FROM {t} WHERE endswith(name, 'a') OR score = 7",
                "SELECT count(*) FROM {t} WHERE NOT endswith(name, 'x') AND score < -900",
                "SELECT id FROM {t} WHERE endswith(name, 'toolongforsix') OR id = 3",
                "SELECT id FROM {t} WHERE name LIKE '%a%' AND score = 0",
                "SELECT id, score FROM {t} WHERE score >= -3 AND score <= 3",
                "SELECT id FROM {t} WHERE score > 2147483647 OR score < -2147483648",
                "SELECT id, big FROM {t} WHERE big > 18000000000000000000",
                "SELECT id, big FROM {t} WHERE big < 5",
                "SELECT id, wide FROM {t} WHERE wide < -9000000000000000000",
                "SELECT id FROM {t} WHERE flags = 15 AND score > 900",
                "SELECT count(*), sum(score), min(score), max(score), avg(score) FROM {t}",
                "SELECT flags, sum(score), min(score) FROM {t} GROUP BY flags",
                "SELECT flags, score, id, count(*) FROM {t} WHERE score < -900 "
                        + "GROUP BY flags, score, id",
                "SELECT id, score, flags, max(wide) FROM {t} WHERE id < 3000 "
                        + "GROUP BY id, score, flags",
                "SELECT sum(wide) FROM {t} WHERE wide > -1000 AND wide < 1000",
                "SELECT min(big), max(big), count(big) FROM {t}",
                "SELECT min(wide), max(wide) FROM {t} GROUP BY flags",
                "SELECT name, count(*) FROM {t} GROUP BY name",
                "SELECT score FROM {t} ORDER BY score LIMIT 3",
                "SELECT id, score FROM {t} ORDER BY score, id LIMIT 3",
                "SELECT score, name FROM {t} WHERE name = 'betamx' ORDER BY score DESC LIMIT 2",
                "SELECT id, wide FROM {t} ORDER BY wide DESC LIMIT 3");
    }

    static Stream<String> mxCases() {
        return TestTier.everyNthUnlessFull(mxQueries(), 3);
    }

    @ParameterizedTest
    @MethodSource("mxCases")
    void mixedTypesMatchSpark(String sql) {
        assertSameAnswer(sql, "mx");
    }

    private String executed(Dataset<Row> df) {
        return df.queryExecution().executedPlan().toString();
    }

    private String optimized(Dataset<Row> df) {
        return df.queryExecution().optimizedPlan().toString();
    }

    @Test
    void filtersArePushedWhole() {
        Dataset<Row> df = spark.sql("SELECT timestamp FROM wc WHERE method = 1 AND size > 100");
        assertThat(executed(df)).contains("tasklet: filter")
                .contains("PushedFilters: [method = 1, size > 100]")
                .contains("ReadSchema: struct<timestamp:bigint>");
        assertThat(optimized(df)).doesNotContain("Filter");
    }

    @Test
    void endsWithIsPushedAsTheDrivesSuffixMatch() {
        Dataset<Row> df = spark.sql("SELECT id FROM mx WHERE endswith(name, 'mx')");
        assertThat(executed(df)).contains("tasklet: filter")
                .contains("PushedFilters: [name LIKE '%mx' ESCAPE");
        assertThat(optimized(df)).doesNotContain("Filter");
    }

    @Test
    void aPlainReadIsColumnarOrRowsAsAsked() {
        for (boolean columnar : new boolean[] {false, true}) {
            Dataset<Row> df = spark.read().format("smartssd").option("layout", "wc98")
                    .option("columnar", String.valueOf(columnar)).load(wcPath)
                    .selectExpr("size + 1 AS s", "region");
            String plan = executed(df);
            assertThat(plan).contains("tasklet: none (record read)");
            if (columnar) {
                assertThat(plan).contains(", columnar").contains("ColumnarToRow");
            } else {
                assertThat(plan).doesNotContain(", columnar").doesNotContain("ColumnarToRow");
            }
            assertThat(df.agg(org.apache.spark.sql.functions.sum("s")).first().getLong(0))
                    .isEqualTo(spark.sql("SELECT sum(size + 1) FROM wc_ref").first().getLong(0));
        }
    }

    @Test
    void unsupportedPredicatesStayInSpark() {
        Dataset<Row> df = spark.sql("SELECT timestamp FROM wc WHERE size % 7 = 1 AND method = 1");
        assertThat(executed(df)).contains("PushedFilters: [method = 1]");
        assertThat(optimized(df)).contains("Filter ((size");
    }

    @Test
    void aggregateIsCompleteOnOnePartition() {
        Dataset<Row> df = spark.sql("SELECT region, count(*) FROM wc1 GROUP BY region");
        assertThat(executed(df)).contains("tasklet: group-aggregate")
                .contains("PushedAggregates: [COUNT(*)]")
                .contains("PushedGroupByExpressions: [region]");
        assertThat(optimized(df)).doesNotContain("Aggregate");
    }

    @Test
    void fourGroupKeysArePushedInOnePass() {
        Dataset<Row> df = spark.sql("SELECT region, type, method, status, count(*) FROM wc1 "
                + "GROUP BY region, type, method, status");
        assertThat(executed(df)).contains("tasklet: group-aggregate")
                .contains("PushedGroupByExpressions: [region, type, method, status]");
        assertThat(optimized(df)).doesNotContain("Aggregate");
        Dataset<Row> five = spark.sql("SELECT region, type, method, status, server, count(*) "
                + "FROM wc1 GROUP BY region, type, method, status, server");
        assertThat(executed(five)).doesNotContain("PushedAggregates");
    }

    @Test
    void aggregateIsPartialOverSeveralPartitions() {
        Dataset<Row> df = spark.sql("SELECT region, sum(size) FROM wc GROUP BY region");
        String plan = executed(df);
        assertThat(plan).contains("PushedAggregates: [SUM(size)]")
                .contains("PushedGroupByExpressions: [region]");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("partitions: (\\d+)")
                .matcher(plan);
        assertThat(m.find()).isTrue();
        assertThat(Integer.parseInt(m.group(1))).isGreaterThan(1);
        assertThat(optimized(df)).contains("Aggregate");
    }

    @Test
    void filterAndAggregateRunInOnePass() {
        Dataset<Row> df = spark.sql("SELECT method, count(*), max(size) FROM wc1 WHERE region = 2 "
                + "AND size > 100 GROUP BY method");
        assertThat(executed(df)).contains("tasklet: group-aggregate")
                .contains("PushedFilters: [region = 2, size > 100]")
                .contains("PushedAggregates: [COUNT(*), MAX(size)]")
                .contains("PushedGroupByExpressions: [method]");
        assertThat(optimized(df)).doesNotContain("Aggregate").doesNotContain("Filter");
    }

    @Test
    void filterAndTopNRunInOnePass() {
        Dataset<Row> df = spark.sql("SELECT timestamp FROM wc1 WHERE type = 3 ORDER BY size DESC "
                + "LIMIT 4");
        assertThat(executed(df)).contains("tasklet: top-n").contains("PushedFilters: [type = 3]")
                .contains("PushedTopN: ORDER BY [size DESC");
        assertThat(optimized(df)).doesNotContain("Sort").doesNotContain("Filter");
    }

    /** The scan node's SQL metrics after one run of the query. */
    static java.util.Map<String, Long> metrics(Dataset<Row> df) {
        df.collect();
        return metricsOfLastRun(df);
    }

    /** The scan node's SQL metrics after {@code df} ran. */
    static java.util.Map<String, Long> metricsOfLastRun(Dataset<Row> df) {
        org.apache.spark.sql.execution.SparkPlan p = df.queryExecution().executedPlan();
        for (org.apache.spark.sql.execution.SparkPlan leaf
                : scala.jdk.javaapi.CollectionConverters.asJava(p.collectLeaves())) {
            if (leaf.metrics().contains(DriveMetrics.LINK)) {
                java.util.Map<String, Long> m = new java.util.HashMap<>();
                scala.jdk.javaapi.CollectionConverters.asJava(leaf.metrics())
                        .forEach((k, v) -> m.put(k, v.value()));
                return m;
            }
        }
        throw new AssertionError("no scan with drive metrics in " + p);
    }

    @Test
    void metricsCountLinkBytesAndModelledDeviceWork() {
        // without adaptive execution the scan stays a leaf of the executed plan
        spark.conf().set("spark.sql.adaptive.enabled", "false");
        try {
            String q = "SELECT region, count(*) FROM {t} GROUP BY region";
            Dataset<Row> pushed = spark.sql(q.replace("{t}", "wc"));
            Dataset<Row> plain = spark.sql(q.replace("{t}", "wc_nopush"));
            long file = 20L * WC_RECORDS;
            java.util.Map<String, Long> plainRun = metrics(plain);
            java.util.Map<String, Long> pushedRun = metrics(pushed);
            assertThat(plainRun.get(DriveMetrics.LINK)).isEqualTo(file);
            assertThat(plainRun.get(DriveMetrics.SCANNED)).isZero();
            assertThat(pushedRun.get(DriveMetrics.LINK)).isPositive().isLessThan(file / 100);
            assertThat(pushedRun.get(DriveMetrics.SCANNED)).isEqualTo(file);
            assertThat(pushedRun.get(DriveMetrics.TIME)).isPositive();
            assertThat(pushedRun.get(DriveMetrics.ENERGY)).isPositive();
        } finally {
            spark.conf().unset("spark.sql.adaptive.enabled");
        }
    }

    @Test
    void sumOfSixtyFourBitFieldIsPushedWithSparksOverflowRule() {
        // the drive's sum is checked under ANSI, wrapping without (the test below)
        Dataset<Row> df = spark.sql("SELECT sum(wide) FROM mx");
        assertThat(executed(df)).contains("PushedAggregates: [SUM(wide)]");
        Dataset<Row> unsigned = spark.sql("SELECT sum(big) FROM mx");
        assertThat(executed(unsigned)).doesNotContain("PushedAggregates");
    }

    @Test
    void overflowingSumFailsUnderAnsiAndWrapsWithout() {
        String q = "SELECT sum(wide) FROM {t}";
        try {
            spark.conf().set("spark.sql.ansi.enabled", "true");
            for (String t : List.of("mx", "mx_ref")) {
                assertThatThrownBy(() -> spark.sql(q.replace("{t}", t)).collect())
                        .hasMessageContaining("overflow");
            }
            spark.conf().set("spark.sql.ansi.enabled", "false");
            assertSameAnswer(q, "mx");
        } finally {
            spark.conf().unset("spark.sql.ansi.enabled");
        }
    }

    @Test
    void topNIsPushed() {
        Dataset<Row> one = spark.sql("SELECT timestamp FROM wc1 ORDER BY timestamp DESC LIMIT 3");
        assertThat(executed(one)).contains("tasklet: top-n")
                .contains("PushedTopN: ORDER BY [timestamp DESC");
        assertThat(optimized(one)).doesNotContain("Sort");
        Dataset<Row> many = spark.sql("SELECT timestamp FROM wc ORDER BY timestamp LIMIT 3");
        assertThat(executed(many)).contains("PushedTopN: ORDER BY [timestamp ASC");
    }

    @Test
    void limitIsPushed() {
        Dataset<Row> df = spark.sql("SELECT * FROM wc WHERE method = 2 LIMIT 10");
        assertThat(executed(df)).contains("PushedLimit: LIMIT 10");
        List<Row> got = df.collectAsList();
        assertThat(got).hasSize(10);
        List<String> all = rows("SELECT * FROM {t} WHERE method = 2", "wc_ref");
        got.forEach(r -> assertThat(all).contains(r.toString()));
    }

    @Test
    void switchedOffPushdownPushesNothing() {
        Dataset<Row> df = spark.sql("SELECT region, count(*) FROM wc1_nopush WHERE method = 1 "
                + "GROUP BY region");
        assertThat(executed(df)).contains("PushedFilters: []")
                .doesNotContain("PushedAggregates").contains("tasklet: none");
    }

    @Test
    void badLayoutFailsAtAnalysis() {
        assertThatThrownBy(() -> reader().option("layout", "ts:u33@0").load(wcPath))
                .hasMessageContaining("bad layout column 'ts:u33@0'");
        assertThatThrownBy(() -> reader().option("layout", "wc98").option("recordSize", "16")
                .load(wcPath)).hasMessageContaining("a wc98 record is at least 20 bytes");
        assertThatThrownBy(() -> reader().load(wcPath))
                .hasMessageContaining("option 'layout' is missing");
        assertThatThrownBy(() -> spark.sql("SELECT nosuch FROM wc").collect())
                .hasMessageContaining("nosuch");
    }

    @Test
    void partialRecordIsReported() throws Exception {
        String p = SparkDrive.get().put("/logs/odd", SparkDrive.wc98(10, 20, 9));
        assertThatThrownBy(() -> reader().option("layout", "wc98").option("recordSize", "24")
                .load(p)).hasMessageContaining("file " + p + " is 200 bytes, not a multiple of "
                + "the record size 24");
        long n = reader().option("layout", "wc98").option("recordSize", "24")
                .option("partialRecord", "skip").load(p).count();
        assertThat(n).isEqualTo(8);
    }
}
