package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
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
 * Dates and timestamps Spark's reader rebases from the hybrid Julian calendar. A file Spark
 * wrote with {@code datetimeRebaseModeInWrite=LEGACY} (as Spark 2 wrote every file) holds
 * dates before 1582-10-15 and timestamps before 1900 as hybrid-calendar values, and says so
 * in its footer; Spark's reader turns them back. The drive compares and returns the stored
 * values, so such a file is read on the host, the reason in EXPLAIN, and its answers are
 * Spark's. The same table written in the proleptic calendar (Spark's default) runs in the
 * drive.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ParquetLegacyCalendarTest {
    private static final String LEGACY = "smartssd://" + SparkDrive.DRIVE + "/pq-legacy/t";
    private static final String CORRECTED = "smartssd://" + SparkDrive.DRIVE + "/pq-legacy/c";
    private static final String QUERY = "SELECT id, d, ts FROM {t} WHERE d <= DATE'1582-01-01'";

    private SparkSession spark;

    @BeforeAll
    void writeTables() throws IOException {
        spark = SparkDrive.get().spark;
        String key = "spark.sql.parquet.datetimeRebaseModeInWrite";
        String old = spark.conf().get(key);
        String tsKey = "spark.sql.parquet.outputTimestampType";
        String oldTs = spark.conf().get(tsKey);
        spark.conf().set(tsKey, "TIMESTAMP_MICROS");
        try {
            for (String[] t : new String[][] {{"LEGACY", LEGACY}, {"CORRECTED", CORRECTED}}) {
                spark.conf().set(key, t[0]);
                spark.range(4_000).selectExpr("id",
                                "date_add(DATE'1000-01-01', CAST(id * 97 AS INT)) AS d",
                                "timestamp_micros(-40000000000000000 + id * 1000000000000) AS ts")
                        .repartition(1).write().mode("overwrite")
                        .option("parquet.block.row.count.limit", "500").parquet(t[1]);
            }
        } finally {
            spark.conf().set(key, old);
            spark.conf().set(tsKey, oldTs);
        }
    }

    @AfterAll
    void dropTables() throws IOException {
        Path p = new Path(LEGACY).getParent();
        p.getFileSystem(spark.sparkContext().hadoopConfiguration()).delete(p, true);
    }

    @Test
    void aLegacyCalendarFileIsReadOnTheHostWithSparksAnswers() {
        List<String> want = rows(spark.read().parquet(LEGACY), "pq_legacy_spark");
        assertThat(want).isNotEmpty();
        assertThat(rows(spark.read().format("smartssd").load(LEGACY), "pq_legacy_conn2"))
                .isEqualTo(want);
        Dataset<Row> q = query(LEGACY, "pq_legacy_conn");
        assertThat(q.queryExecution().executedPlan().toString()).contains("drive=0,")
                .contains("hybrid Julian calendar");
    }

    @Test
    void aProlepticFileStillRunsInTheDrive() {
        Dataset<Row> q = query(CORRECTED, "pq_corrected_conn");
        assertThat(q.queryExecution().executedPlan().toString()).doesNotContain("drive=0,")
                .doesNotContain("hybrid Julian calendar");
        assertThat(rows(spark.read().format("smartssd").load(CORRECTED), "pq_corrected_c"))
                .isEqualTo(rows(spark.read().parquet(CORRECTED), "pq_corrected_spark"));
    }

    private Dataset<Row> query(String path, String view) {
        spark.read().format("smartssd").load(path).createOrReplaceTempView(view);
        return spark.sql(QUERY.replace("{t}", view));
    }

    private List<String> rows(Dataset<Row> t, String view) {
        t.createOrReplaceTempView(view);
        return SparkDrive.sortedRows(spark, QUERY, view);
    }
}
