package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Parquet on the drive through {@code spark.read.format("smartssd").load(path)}, no options:
 * files Spark wrote to smartssd:// (SNAPPY and UNCOMPRESSED, several row groups, ZSTD) and
 * files pyarrow and DuckDB wrote (firmware-tasklets' pq_vectors copied onto the drive). Each
 * answer equals Spark's own Parquet reader over the same bytes ({@code spark.read.parquet}
 * through the FileSystem); each plan says what the drive ran and what stayed on the host.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SmartSsdParquetTest {
    private static final java.nio.file.Path VECTORS = java.nio.file.Path.of(
            System.getProperty("user.dir")).resolve(
            "../firmware-tasklets/tasklets/tests/pq_vectors").normalize();
    private static final String ROOT = "smartssd://" + SparkDrive.DRIVE + "/pq/";

    private SparkSession spark;

    @BeforeAll
    void writeTables() throws Exception {
        spark = SparkDrive.get().spark;
        Dataset<Row> df = spark.range(0, 20_000).selectExpr(
                "id", "CAST(IF(id % 11 = 0, NULL, id % 7) AS INT) AS k",
                "IF(id % 13 = 0, NULL, concat('n', CAST(id % 17 AS STRING))) AS name",
                "CAST((id % 1000) / 10.0 - 40 AS DECIMAL(9,2)) AS price",
                "date_add(DATE '2020-01-01', CAST(id % 400 AS INT)) AS day",
                "IF(id % 5 = 0, NULL, sin(id)) AS score", "id % 3 = 0 AS flag",
                "CAST(id % 30000 - 15000 AS SHORT) AS s");
        String old = spark.conf().get("spark.sql.parquet.outputTimestampType");
        spark.conf().set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS");
        try {
            for (String codec : List.of("snappy", "uncompressed", "zstd")) {
                df.withColumn("ts", org.apache.spark.sql.functions.expr(
                                "timestamp_micros(id * 3600000000)"))
                        .repartition(2).sortWithinPartitions("id").write().mode("overwrite")
                        .option("compression", codec).option("parquet.block.size", 64 * 1024)
                        .parquet(ROOT + codec);
            }
        } finally {
            spark.conf().set("spark.sql.parquet.outputTimestampType", old);
        }
        for (String v : List.of("dict_snappy", "plain_none", "duckdb_snappy", "v2_snappy")) {
            Path p = new Path(ROOT + "vectors/" + v + ".parquet");
            try (FSDataOutputStream out = p.getFileSystem(spark.sparkContext()
                    .hadoopConfiguration()).create(p)) {
                out.write(Files.readAllBytes(VECTORS.resolve(v + ".parquet")));
            }
        }
    }

    private static final List<String> SPARK_QUERIES = List.of(
            "SELECT id, name, price FROM {t} WHERE k = 3",
            "SELECT id, ts, score FROM {t} WHERE (name LIKE 'n1%' AND score > 0.5) OR k IS NULL",
            "SELECT id, day, s FROM {t} WHERE k IN (1, 4) AND day >= DATE '2020-06-01' "
                    + "AND price < 10.5 AND NOT flag",
            "SELECT name, count(*), sum(price), min(score), max(day) FROM {t} "
                    + "WHERE name IS NOT NULL AND id < 15000 GROUP BY name",
            "SELECT count(*) FROM {t}",
            "SELECT id FROM {t} WHERE ts > TIMESTAMP '1971-06-01 00:00:00' AND name = 'n5'",
            "SELECT * FROM {t} WHERE id >= 19990");

    /** The answer through the connector and through Spark's Parquet reader, sorted. */
    private List<String> answer(String sql, String path, boolean smartssd) {
        Dataset<Row> t = smartssd ? spark.read().format("smartssd").load(path)
                : spark.read().parquet(path);
        t.createOrReplaceTempView(smartssd ? "pq_drive" : "pq_host");
        return SparkDrive.sortedRows(spark, sql, smartssd ? "pq_drive" : "pq_host");
    }

    private String plan(String sql, String path) {
        spark.read().format("smartssd").load(path).createOrReplaceTempView("pq_drive");
        return spark.sql(sql.replace("{t}", "pq_drive")).queryExecution().executedPlan()
                .toString();
    }

    private void sameAnswers(String path, List<String> queries) {
        for (String q : queries) {
            List<String> want = answer(q, path, false);
            assertThat(answer(q, path, true)).as(q + " over " + path).isEqualTo(want);
        }
    }

    @Test
    void sparkWrittenSnappyAndUncompressedRunInTheDrive() {
        for (String codec : List.of("snappy", "uncompressed")) {
            String path = ROOT + codec;
            sameAnswers(path, SPARK_QUERIES);
            String p = plan(SPARK_QUERIES.get(0), path);
            assertThat(p).contains("SmartSsdParquetScan [files=2")
                    .contains("pushedFilters=[IsNotNull(k), EqualTo(k,3)]")
                    .doesNotContain("host(");
            int groups = Integer.parseInt(p.replaceAll("(?s).*rowGroups=(\\d+).*", "$1"));
            assertThat(groups).isGreaterThan(2);
            assertThat(p).contains("drive=" + groups + ", prunedByStatistics=0");
            assertThat(plan(SPARK_QUERIES.get(1), path)).contains("StringStartsWith(name,n1)");
            // each file is sorted by id: the statistics leave out all but its last row group
            String last = plan(SPARK_QUERIES.get(6), path);
            int pruned = Integer.parseInt(last.replaceAll("(?s).*prunedByStatistics=(\\d+).*",
                    "$1"));
            assertThat(last).contains("rowGroups=2, ");
            assertThat(pruned).isEqualTo(groups - 2);
        }
    }

    @Test
    void zstdFallsBackToTheHostWithItsReason() {
        String path = ROOT + "zstd";
        sameAnswers(path, SPARK_QUERIES);
        String p = plan(SPARK_QUERIES.get(0), path);
        assertThat(p).contains("drive=0,").contains("codec ZSTD");
    }

    @Test
    void pyarrowAndDuckDbFilesGiveSparksAnswers() {
        List<String> queries = new ArrayList<>(List.of(
                "SELECT id, name, price, day FROM {t} WHERE k = 3",
                "SELECT id, ts, score FROM {t} WHERE (name LIKE 'sm%' AND score > 0.0) "
                        + "OR (k IS NULL AND NOT flag)",
                "SELECT id, tsu, amount FROM {t} WHERE k IN (1, 4) AND id < 500 "
                        + "AND day <> DATE '1970-03-01'",
                "SELECT g, count(*), sum(price), min(score), max(amount) FROM {t} GROUP BY g",
                "SELECT id FROM {t} WHERE name = 'smart3'"));
        for (String v : List.of("dict_snappy", "plain_none", "duckdb_snappy", "v2_snappy")) {
            sameAnswers(ROOT + "vectors/" + v + ".parquet", queries);
        }
        assertThat(plan(queries.get(0), ROOT + "vectors/dict_snappy.parquet"))
                .contains("rowGroups=3, drive=3,");
    }

    @Test
    void hostPlacementReadsOnTheHost() {
        String path = ROOT + "snappy";
        spark.read().format("smartssd").option("placement", "host").load(path)
                .createOrReplaceTempView("pq_drive");
        Dataset<Row> d = spark.sql(SPARK_QUERIES.get(0).replace("{t}", "pq_drive"));
        assertThat(d.queryExecution().executedPlan().toString()).contains("drive=0,")
                .contains("placement=host");
        List<String> got = new ArrayList<>();
        d.collectAsList().forEach(r -> got.add(r.toString()));
        got.sort(null);
        assertThat(got).isEqualTo(answer(SPARK_QUERIES.get(0), path, false));
    }
}
