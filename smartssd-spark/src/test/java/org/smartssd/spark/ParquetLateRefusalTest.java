package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A drive partition whose later run the drive refuses: 70 row groups of 1,000 short rows,
 * then one of 70 rows of 1 MiB strings (70 MiB uncompressed, more than the emulated drive's
 * 64 MiB of DRAM; snappy keeps the file small). The partition's first run (56 row groups,
 * as many as the plan holds) is answered in the drive; the run holding the wide row group is
 * refused when it starts, and it and the row groups after it are read on the host. The
 * answer equals Spark's own reader's.
 */
@Tag("full")
class ParquetLateRefusalTest {
    private static final String PATH = "smartssd://" + SparkDrive.DRIVE + "/pq-late/t";

    @Test
    void aRefusedLaterRunSendsOnlyTheRestOfThePartitionToTheHost() throws Exception {
        SparkSession spark = SparkDrive.get().spark;
        spark.range(70_070).selectExpr("id", "IF(id < 70000, 'x', repeat('w', 1048576)) AS s")
                .repartition(1).sortWithinPartitions("id").write().mode("overwrite")
                .option("compression", "snappy")
                .option("parquet.block.row.count.limit", "1000").parquet(PATH);
        String key = "spark.sql.files.minPartitionNum";
        String old = spark.conf().getOption(key).getOrElse(() -> null);
        spark.conf().set(key, "1");
        try (LogCapture log = new LogCapture()) {
            spark.read().format("smartssd").load(PATH).createOrReplaceTempView("pq_late");
            String sql = "SELECT id FROM pq_late WHERE s = 'x'";
            assertThat(spark.sql(sql).queryExecution().executedPlan().toString())
                    .contains("rowGroups=71, drive=71,");
            assertThat(spark.sql(sql).rdd().getNumPartitions()).isEqualTo(1);
            List<Long> got = new ArrayList<>();
            spark.sql(sql).collectAsList().forEach(r -> got.add(r.getLong(0)));
            got.sort(null);
            assertThat(got).hasSize(70_000);
            for (int i = 0; i < got.size(); i++) {
                assertThat(got.get(i)).as("row %d", i).isEqualTo(i);
            }
            List<String> messages = log.events.stream()
                    .map(e -> e.getMessage().getFormattedMessage()).toList();
            // the first run's 56 row groups came from the drive, the rest from the host
            assertThat(messages).anyMatch(m -> m.contains("row groups 56-70 read on the host")
                    && m.contains("no room"));
            assertThat(messages).noneMatch(m -> m.contains("row groups 0-70 read on the host"));
        } finally {
            if (old == null) {
                spark.conf().unset(key);
            } else {
                spark.conf().set(key, old);
            }
            Path p = new Path(PATH).getParent();
            p.getFileSystem(spark.sparkContext().hadoopConfiguration()).delete(p, true);
        }
    }
}
