package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The connector splits a Parquet file as Spark splits files ({@code FilePartition}'s rule:
 * {@code maxPartitionBytes}, no fewer partitions than the parallelism where the bytes allow,
 * no split under {@code openCostInBytes}), whatever the side: a partition in the drive holds
 * consecutive row groups, run together, not one row group each, in runs whose input ranges
 * the drive takes (a one-column scan of 120 row groups is 120 ranges; a run takes 64).
 * Answers equal Spark's own reader over the same file.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ParquetPartitionsTest {
    private static final String PATH = "smartssd://" + SparkDrive.DRIVE + "/pq-parts/t";
    private static final int ROWS = 24_000;
    private static final int ROWS_PER_GROUP = 200;
    private static final String QUERY = "SELECT id, name FROM {t} WHERE k = 3";
    /** 120 row groups of 100 rows of about 100 B of hex digests each: a row group's name
     *  chunk several drive pages from the next one's. */
    private static final String WIDE = "smartssd://" + SparkDrive.DRIVE + "/pq-parts/wide";

    private SparkSession spark;

    @BeforeAll
    void writeTable() throws Exception {
        spark = SparkDrive.get().spark;
        spark.range(ROWS).selectExpr("id", "CAST(id % 7 AS INT) AS k",
                        "concat('name-', CAST(id % 101 AS STRING)) AS name")
                .repartition(1).sortWithinPartitions("id").write().mode("overwrite")
                .option("compression", "snappy")
                .option("parquet.block.row.count.limit", String.valueOf(ROWS_PER_GROUP))
                .parquet(PATH);
        spark.range(12_000).selectExpr("id", "concat(sha2(CAST(id AS STRING), 256), "
                        + "sha2(CAST(id * 7 AS STRING), 256), sha2(CAST(id * 13 AS STRING), 256)) "
                        + "AS pad", "concat('name-', CAST(id % 101 AS STRING)) AS name")
                .repartition(1).sortWithinPartitions("id").write().mode("overwrite")
                .option("compression", "snappy").option("parquet.block.row.count.limit", "100")
                .parquet(WIDE);
    }

    @AfterAll
    void dropTable() throws Exception {
        Path p = new Path(PATH).getParent();
        p.getFileSystem(spark.sparkContext().hadoopConfiguration()).delete(p, true);
    }

    @Test
    void aSmallFileIsOnePartitionOfAllItsRowGroupsInTheDrive() {
        // the file is far below openCostInBytes (4 MiB): Spark reads it as one split
        Dataset<Row> d = query("pq_parts_one");
        assertThat(d.queryExecution().executedPlan().toString())
                .contains("rowGroups=120, drive=120,");
        assertThat(d.rdd().getNumPartitions()).isEqualTo(1);
        assertThat(rows(d)).isEqualTo(expected());
    }

    @Test
    void maxPartitionBytesSplitsTheDrivesRowGroupsAsSparkSplitsTheFile() {
        long fileBytes = fileBytes();
        String[] keys = {"spark.sql.files.maxPartitionBytes", "spark.sql.files.openCostInBytes"};
        String[] old = {spark.conf().get(keys[0]), spark.conf().get(keys[1])};
        spark.conf().set(keys[0], String.valueOf(fileBytes / 4));
        spark.conf().set(keys[1], "0");
        try {
            Dataset<Row> d = query("pq_parts_four");
            assertThat(d.queryExecution().executedPlan().toString())
                    .contains("rowGroups=120, drive=120,");
            // a partition closes before a row group that would take it past a quarter of
            // the file: four or five of them, never one per row group
            assertThat(d.rdd().getNumPartitions()).isBetween(4, 6);
            assertThat(rows(d)).isEqualTo(expected());
        } finally {
            spark.conf().set(keys[0], old[0]);
            spark.conf().set(keys[1], old[1]);
        }
    }

    @Test
    void aOneColumnScanOfManyRowGroupsIsCutIntoRunsTheDriveTakes() {
        // name is the last column: its chunks are a range a row group; one partition of all
        String key = "spark.sql.files.minPartitionNum";
        String old = spark.conf().getOption(key).getOrElse(() -> null);
        spark.conf().set(key, "1");
        try {
            String sql = "SELECT name FROM {t} WHERE name = 'name-5'";
            spark.read().format("smartssd").load(WIDE).createOrReplaceTempView("pq_parts_name");
            Dataset<Row> d = spark.sql(sql.replace("{t}", "pq_parts_name"));
            assertThat(d.queryExecution().executedPlan().toString())
                    .contains("rowGroups=120, drive=120,").contains("columns=[name]");
            assertThat(d.rdd().getNumPartitions()).isEqualTo(1);
            // ids 0 .. 11,999 with id % 101 == 5
            assertThat(d.collectAsList()).hasSize((12_000 - 1 - 5) / 101 + 1)
                    .allMatch(r -> r.getString(0).equals("name-5"));
        } finally {
            if (old == null) {
                spark.conf().unset(key);
            } else {
                spark.conf().set(key, old);
            }
        }
    }

    private Dataset<Row> query(String view) {
        spark.read().format("smartssd").load(PATH).createOrReplaceTempView(view);
        return spark.sql(QUERY.replace("{t}", view));
    }

    private List<String> expected() {
        spark.read().parquet(PATH).createOrReplaceTempView("pq_parts_spark");
        return rows(spark.sql(QUERY.replace("{t}", "pq_parts_spark")));
    }

    private static List<String> rows(Dataset<Row> d) {
        List<String> out = new ArrayList<>();
        d.collectAsList().forEach(r -> out.add(r.toString()));
        out.sort(null);
        return out;
    }

    private long fileBytes() {
        try {
            Path dir = new Path(PATH);
            long n = 0;
            for (var st : dir.getFileSystem(spark.sparkContext().hadoopConfiguration())
                    .listStatus(dir)) {
                if (st.getPath().getName().endsWith(".parquet")) {
                    n += st.getLen();
                }
            }
            return n;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
