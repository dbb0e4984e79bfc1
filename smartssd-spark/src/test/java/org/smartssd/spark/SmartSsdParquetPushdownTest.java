package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Aggregates, top-N and LIMIT pushed into the drive for Parquet tables Spark wrote to
 * smartssd:// (SNAPPY, UNCOMPRESSED; ZSTD, read on the host), with filters the drive takes
 * whole: each answer equals Spark's own Parquet reader over the same bytes, in
 * {@code placement=device} and {@code host}; each plan says what was pushed, and what was not
 * and why.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("full")
class SmartSsdParquetPushdownTest {
    private static final String ROOT = "smartssd://" + SparkDrive.DRIVE + "/pqpush/";

    private SparkSession spark;

    @BeforeAll
    void writeTables() throws Exception {
        spark = SparkDrive.get().spark;
        // g, id, s, day and big have no NULL (their statistics say so); k, name, score do
        Dataset<Row> df = spark.range(0, 12_000).selectExpr(
                "id", "CAST(id % 5 AS INT) AS g",
                "CAST(IF(id % 11 = 0, NULL, id % 7 - 3) AS INT) AS k",
                "IF(id % 13 = 0, NULL, concat('n', CAST(id % 17 AS STRING))) AS name",
                "CAST((id % 1000) / 10.0 - 40 AS DECIMAL(9,2)) AS price",
                "date_add(DATE '2020-01-01', CAST(id % 400 AS INT)) AS day",
                "IF(id % 5 = 0, NULL, IF(id % 7 = 0, -0.0D, sin(id))) AS score",
                "id % 3 = 0 AS flag", "CAST(id % 300 - 150 AS SHORT) AS s",
                "id * 100000000000000 AS big", "800000000000000 AS w");
        for (String codec : List.of("snappy", "uncompressed", "zstd")) {
            df.repartition(2).sortWithinPartitions("id").write().mode("overwrite")
                    .option("compression", codec).option("parquet.block.size", 32 * 1024)
                    .parquet(ROOT + codec);
        }
    }

    /** Pushed into the drive: each with the words the plan shows for it. */
    private static final List<String[]> PUSHED = List.of(
            new String[] {"SELECT count(*) FROM {t}", "pushedAggregates=[COUNT(*)]"},
            new String[] {"SELECT g, count(*), sum(id), min(id), max(id) FROM {t} GROUP BY g",
                    "groupBy=[g]"},
            new String[] {"SELECT g, count(k), sum(k), min(k), max(k) FROM {t} "
                    + "WHERE id < 9000 AND name LIKE 'n1%' GROUP BY g", "COUNT(k)"},
            new String[] {"SELECT g, flag, count(*) FROM {t} WHERE k IN (1, 2) GROUP BY g, flag",
                    "groupBy=[g, flag]"},
            new String[] {"SELECT g, min(day), max(day) FROM {t} GROUP BY g", "MIN(day)"},
            new String[] {"SELECT min(price), max(price), count(*) FROM {t} WHERE k = 3",
                    "MAX(price)"},
            new String[] {"SELECT s, sum(s), count(s) FROM {t} WHERE NOT flag GROUP BY s",
                    "SUM(s)"},
            new String[] {"SELECT count(*), max(id) FROM {t} WHERE id > 1000000000",
                    "pushedAggregates=[COUNT(*), MAX(id)]"},
            new String[] {"SELECT g, avg(k), count(k) FROM {t} WHERE g <> 1 GROUP BY g",
                    "pushedAggregates=[SUM(k), COUNT(k)"},
            new String[] {"SELECT id, k, price, day FROM {t} WHERE g = 2 ORDER BY id DESC LIMIT 7",
                    "pushedTopN=7 by id DESC NULLS LAST"},
            new String[] {"SELECT id, s FROM {t} WHERE name = 'n3' ORDER BY s, id LIMIT 9",
                    "SmartSsdParquetScan"},
            new String[] {"SELECT id, day FROM {t} WHERE k IS NULL ORDER BY big LIMIT 4",
                    "pushedTopN=4 by big ASC NULLS FIRST"});

    /** Left to Spark, each with the reason the plan gives. */
    private static final List<String[]> NOT_PUSHED = List.of(
            new String[] {"SELECT k, count(*) FROM {t} GROUP BY k", "GROUP BY k: it may be NULL"},
            new String[] {"SELECT sum(price) FROM {t}", "Spark's sum type is wider"},
            new String[] {"SELECT g, min(score), max(score) FROM {t} GROUP BY g",
                    "FLOAT/DOUBLE score"},
            new String[] {"SELECT count(*), sum(k) FROM {t}", "COUNT(*) beside an aggregate of k"},
            new String[] {"SELECT sum(big) FROM {t} WHERE id < 50", "may sum past a LONG"},
            new String[] {"SELECT min(id), max(k) FROM {t}", "one value column a run"},
            new String[] {"SELECT name, count(*) FROM {t} GROUP BY name", "of string name"},
            new String[] {"SELECT k, id FROM {t} ORDER BY k, id LIMIT 5", "SmartSsdParquetScan"},
            new String[] {"SELECT k FROM {t} ORDER BY k LIMIT 3",
                    "ORDER BY k: it may be NULL"},
            new String[] {"SELECT id, name FROM {t} WHERE g = 4 ORDER BY id LIMIT 6",
                    "topN run by Spark: string column name"},
            new String[] {"SELECT id, score FROM {t} ORDER BY score DESC LIMIT 6",
                    "the drive ranks integer values only"});

    private Dataset<Row> table(String path, boolean smartssd, String placement) {
        return smartssd ? spark.read().format("smartssd").option("placement", placement)
                .load(path) : spark.read().parquet(path);
    }

    private List<String> answer(String sql, Dataset<Row> t, String view) {
        t.createOrReplaceTempView(view);
        return SparkDrive.sortedRows(spark, sql, view);
    }

    private String plan(String sql, Dataset<Row> t) {
        t.createOrReplaceTempView("pq_plan");
        return spark.sql(sql.replace("{t}", "pq_plan")).queryExecution().executedPlan()
                .toString();
    }

    private void sameAnswers(String codec, String placement, List<String[]> queries) {
        String path = ROOT + codec;
        for (String[] q : queries) {
            List<String> want = answer(q[0], table(path, false, null), "pq_ref");
            assertThat(answer(q[0], table(path, true, placement), "pq_drive"))
                    .as(q[0] + " over " + codec + ", placement=" + placement).isEqualTo(want);
        }
    }

    @Test
    void pushedAggregatesTopNAndFiltersAnswerAsSparksReader() {
        for (String codec : List.of("snappy", "uncompressed")) {
            sameAnswers(codec, "device", PUSHED);
            for (String[] q : PUSHED) {
                String p = plan(q[0], table(ROOT + codec, true, "device"));
                assertThat(p).as(q[0]).contains(q[1]).doesNotContain("host(")
                        .doesNotContain("notPushed");
            }
        }
        String p = plan(PUSHED.get(2)[0], table(ROOT + "snappy", true, "device"));
        // the drive's tree holds the filters whole: Spark filters nothing after the scan
        assertThat(p).contains("pushedFilters=[IsNotNull(name), LessThan(id,9000), "
                + "StringStartsWith(name,n1)]").doesNotContain("Filter ");
        assertThat(plan(PUSHED.get(9)[0], table(ROOT + "snappy", true, "device")))
                .doesNotContain("Filter ");
    }

    @Test
    void whatTheDriveCannotComputeStaysWithSparkSayingWhy() {
        sameAnswers("snappy", "device", NOT_PUSHED);
        for (String[] q : NOT_PUSHED) {
            assertThat(plan(q[0], table(ROOT + "snappy", true, "device"))).as(q[0])
                    .contains(q[1]).doesNotContain("pushedAggregates=")
                    .doesNotContain("pushedTopN=");
        }
    }

    @Test
    void hostPlacementAndHostRowGroupsDoThePushedWorkOnTheHost() {
        sameAnswers("snappy", "host", PUSHED);
        sameAnswers("zstd", "device", PUSHED);
        String p = plan(PUSHED.get(2)[0], table(ROOT + "snappy", true, "host"));
        assertThat(p).contains("drive=0,").contains("placement=host")
                .contains("pushedAggregates=").doesNotContain("Filter ");
        assertThat(plan(PUSHED.get(9)[0], table(ROOT + "zstd", true, "device")))
                .contains("drive=0,").contains("codec ZSTD").contains("pushedTopN=7");
    }

    @Test
    void aPushedLimitCutsEachRowGroupsRows() {
        String sql = "SELECT id, g, k FROM {t} WHERE k = 3 AND g <> 1 LIMIT 10";
        for (String placement : List.of("device", "host")) {
            Dataset<Row> t = table(ROOT + "snappy", true, placement);
            assertThat(plan(sql, t)).contains("pushedLimit=10");
            List<String> got = answer(sql, t, "pq_drive");
            List<String> all = answer(sql.replace(" LIMIT 10", ""), table(ROOT + "snappy", false,
                    null), "pq_ref");
            assertThat(got).hasSize(10);
            assertThat(all).containsAll(got);
        }
        List<String> rows = new ArrayList<>();
        table(ROOT + "snappy", true, "device").limit(3).collectAsList()
                .forEach(r -> rows.add(r.toString()));
        assertThat(rows).hasSize(3);
    }

    @Test
    void withoutAggregatePushdownTheDriveCountsTheMatches() {
        String sql = "SELECT count(*) FROM {t} WHERE k = 3 AND name LIKE '%1%'";
        List<String> want = answer(sql, table(ROOT + "snappy", false, null), "pq_ref");
        for (String placement : List.of("device", "host")) {
            Dataset<Row> t = spark.read().format("smartssd").option("placement", placement)
                    .option("pushDownAggregate", "false").load(ROOT + "snappy");
            assertThat(answer(sql, t, "pq_drive")).as(placement).isEqualTo(want);
            assertThat(plan(sql, t)).contains("columns=[k, name]")
                    .doesNotContain("pushedAggregates").doesNotContain("Filter ");
        }
    }

    @Test
    void aPushedSumPastALongFailsOrWrapsAsSparksDoes() {
        // each row group's partial sum is exact (about 700 rows of 8e14); the total, 9.6e18,
        // leaves a LONG in Spark's final SUM
        String sql = "SELECT g, sum(w) FROM {t} GROUP BY g";
        String total = "SELECT sum(w) FROM {t}";
        Dataset<Row> drive = table(ROOT + "snappy", true, "device");
        assertThat(plan(total, drive)).contains("pushedAggregates=[SUM(w)]");
        assertThatThrownBy(() -> answer(total, drive, "pq_drive"))
                .hasMessageContaining("ARITHMETIC_OVERFLOW");
        assertThatThrownBy(() -> answer(total, table(ROOT + "snappy", false, null), "pq_ref"))
                .hasMessageContaining("ARITHMETIC_OVERFLOW");
        spark.conf().set("spark.sql.ansi.enabled", "false");
        try {
            for (String q : List.of(sql, total)) {
                assertThat(answer(q, table(ROOT + "snappy", true, "device"), "pq_drive"))
                        .as(q).isEqualTo(answer(q, table(ROOT + "snappy", false, null),
                                "pq_ref"));
            }
        } finally {
            spark.conf().unset("spark.sql.ansi.enabled");
        }
    }
}
