package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;

import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A table Spark wrote with {@code partitionBy} is directories named {@code column=value}:
 * the connector does not read it, and says so, naming them and what to do, rather than
 * asking for a row layout (what it said before); one partition's directory reads as the
 * Parquet files it holds, with Spark's answer for them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ParquetPartitionedTableTest {
    private static final String PATH = "smartssd://" + SparkDrive.DRIVE + "/pq-partitioned/t";
    private SparkSession spark;

    @BeforeAll
    void writeTable() throws IOException {
        spark = SparkDrive.get().spark;
        spark.range(3_000).selectExpr("id", "CAST(id % 3 AS INT) AS k").write()
                .mode("overwrite").partitionBy("k").parquet(PATH);
    }

    @AfterAll
    void dropTable() throws IOException {
        Path p = new Path(PATH).getParent();
        p.getFileSystem(spark.sparkContext().hadoopConfiguration()).delete(p, true);
    }

    @Test
    void aPartitionedTableIsRefusedNamingItsPartitions() {
        assertThatThrownBy(() -> spark.read().format("smartssd").load(PATH).count())
                .hasStackTraceContaining("is a partitioned table (k=0, k=1, k=2)")
                .hasStackTraceContaining("spark.read.parquet");
    }

    @Test
    void onePartitionsDirectoryReadsAsParquet() {
        String one = PATH + "/k=1";
        assertThat(spark.read().format("smartssd").load(one).where("id > 2000").count())
                .isEqualTo(spark.read().parquet(one).where("id > 2000").count())
                .isEqualTo(333);
    }
}
