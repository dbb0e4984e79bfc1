package org.smartssd.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.sum;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;

/**
 * Spark's own Parquet reader over {@code smartssd://} with Spark's default settings, so
 * Parquet reads its column chunks with Hadoop's vectored reads (issue #34, item 1: this
 * failed with BUSY, reply slots exhausted, until {@code parquet.hadoop.vectored.io.enabled}
 * was turned off). The {@code local[2]} session reads on two threads at once, from an
 * {@code emu:} drive in this process and from a drive served by smartssd-devd.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkParquetReadTest {
    static final long ROWS = 2_000_000;

    @TempDir
    static Path dir;
    Devd devd;

    @BeforeAll
    void startDaemonDrive() throws Exception {
        Path image = dir.resolve("pq.img");
        SmartSsdDevice.formatEmulated(image, null, 256L << 20, 0);
        devd = Devd.start(image, dir.resolve("pq.sock"), Duration.ofSeconds(30));
        SparkDrive.get().spark.sparkContext().hadoopConfiguration()
                .set("smartssd.device.pq.uri", devd.uri());
    }

    @AfterAll
    void stopDaemon() throws Exception {
        if (devd != null) {
            devd.close();
        }
    }

    @Test
    void parquetWrittenAndReadBackOnAnEmuDrive() throws Exception {
        writeAndSum("smartssd://" + SparkDrive.DRIVE + "/parquet/t");
    }

    @Test
    void parquetWrittenAndReadBackThroughTheDaemon() throws Exception {
        writeAndSum("smartssd://pq/parquet/t");
    }

    private static void writeAndSum(String table) throws Exception {
        SparkSession spark = SparkDrive.get().spark;
        assertThat(spark.sparkContext().hadoopConfiguration()
                .get("parquet.hadoop.vectored.io.enabled", "unset"))
                .as("the test runs with Parquet's default, vectored reads on").isEqualTo("unset");
        spark.range(ROWS).withColumn("x", col("id").multiply(7)).write().mode("overwrite")
                .parquet(table);

        Row r = spark.read().parquet(table)
                .agg(sum("id"), sum("x"), count("*")).collectAsList().get(0);

        long ids = ROWS * (ROWS - 1) / 2;
        assertThat(r.getLong(0)).as("sum(id) of 0..%d", ROWS - 1).isEqualTo(ids);
        assertThat(r.getLong(1)).as("sum(x) = 7 sum(id)").isEqualTo(7 * ids);
        assertThat(r.getLong(2)).isEqualTo(ROWS);
        // the suite's drives are shared: leave their room to the other tests
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(table);
        p.getFileSystem(spark.sparkContext().hadoopConfiguration()).delete(p, true);
    }
}
