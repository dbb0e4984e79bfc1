package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * A row group whose parquet-scan needs more memory than the drive has room for (3,000,000
 * rows of two longs, uncompressed, in one row group: a budget of about 160 MiB on a drive
 * of 64 MiB of DRAM) is read on the host, as a page the drive refuses is, giving the answer,
 * instead of failing the query with TASKLET_BUDGET.
 */
class ParquetRowGroupRoomTest {
    private static final long ROWS = 3_000_000;

    @Test
    void aRowGroupTooBigForTheDrivesMemoryIsReadOnTheHost() throws Exception {
        SparkSession spark = SparkDrive.get().spark;
        String path = "smartssd://" + SparkDrive.DRIVE + "/pq-room/t";
        spark.range(ROWS).selectExpr("id", "id % 1000 AS k").repartition(1)
                .write().mode("overwrite").option("compression", "uncompressed")
                .option("parquet.block.size", 256 << 20).parquet(path);
        try (LogCapture log = new LogCapture()) {
            spark.read().format("smartssd").load(path).createOrReplaceTempView("pq_room");
            String sql = "SELECT k, count(*) FROM pq_room WHERE id >= 1000 GROUP BY k";
            assertThat(spark.sql(sql).queryExecution().executedPlan().toString())
                    .contains("rowGroups=1, drive=1,");
            List<Row> got = new ArrayList<>(spark.sql(sql).collectAsList());
            got.sort((a, b) -> Long.compare(a.getLong(0), b.getLong(0)));
            // ids 1000 .. ROWS-1: every residue k of 1000 the same number of times
            assertThat(got).hasSize(1000);
            for (int k = 0; k < 1000; k++) {
                assertThat(got.get(k).getLong(0)).isEqualTo(k);
                assertThat(got.get(k).getLong(1)).as("count of k = %d", k)
                        .isEqualTo((ROWS - 1000) / 1000);
            }
            assertThat(log.events.stream().map(e -> e.getMessage().getFormattedMessage()))
                    .anyMatch(m -> m.contains("row group 0 read on the host")
                            && m.contains("no room"));
        } finally {
            Path p = new Path(path);
            p.getFileSystem(spark.sparkContext().hadoopConfiguration()).delete(p, true);
        }
    }
}
