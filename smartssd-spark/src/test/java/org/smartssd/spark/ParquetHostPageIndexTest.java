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
import org.smartssd.device.ModelCounters;
import org.smartssd.scan.DeviceAccess;

/**
 * Row groups read on the host skip pages by the column index, as Spark's own reader does: a
 * file Spark wrote as one large row group of many small pages, sorted by {@code id}, read
 * with a narrow range of {@code id}. The connector (placement=host) hands Spark's reader the
 * query's filters, so parquet-mr reads only the pages whose statistics may match and their
 * rows in the other columns: the link carries what Spark's reader over the drive carries,
 * not the whole chunks. Answers equal Spark's reader's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ParquetHostPageIndexTest {
    private static final String PATH = "smartssd://" + SparkDrive.DRIVE + "/pq-pageindex/t";
    private static final int ROWS = 60_000;
    private static final String QUERY = "SELECT id, name FROM {t} WHERE id BETWEEN 30000 AND 30499";

    private SparkSession spark;

    @BeforeAll
    void writeTable() throws IOException {
        spark = SparkDrive.get().spark;
        spark.range(ROWS).selectExpr("id", "concat(sha2(CAST(id AS STRING), 256), "
                        + "CAST(id % 101 AS STRING)) AS name")
                .repartition(1).sortWithinPartitions("id").write().mode("overwrite")
                .option("compression", "snappy")
                .option("parquet.page.row.count.limit", "1000")
                .parquet(PATH);
    }

    @AfterAll
    void dropTable() throws IOException {
        Path p = new Path(PATH).getParent();
        p.getFileSystem(spark.sparkContext().hadoopConfiguration()).delete(p, true);
    }

    @Test
    void theHostSideReadsOnlyThePagesTheColumnIndexKeeps() throws IOException {
        DeviceAccess acc = DeviceAccess.of(parquetFile(),
                spark.sparkContext().hadoopConfiguration());
        long[] way2 = run(acc, spark.read().parquet(PATH), "pq_pageindex_spark");
        long[] host = run(acc, spark.read().format("smartssd").option("placement", "host")
                .load(PATH), "pq_pageindex_host");
        assertThat(host[1]).as("answer").isEqualTo(way2[1]);
        long whole = chunkBytes();
        // 500 of 60,000 rows: one or two pages of 1,000 rows of each column, and the footer
        assertThat(way2[0]).as("Spark's reader's link bytes").isLessThan(whole / 10);
        assertThat(host[0]).as("the connector's link bytes, Spark's reader's %d, the chunks %d",
                way2[0], whole).isLessThanOrEqualTo(way2[0] * 11 / 10);
    }

    /** {link bytes, a hash of the sorted answer} of the query over {@code t}. */
    private long[] run(DeviceAccess acc, Dataset<Row> t, String view) throws IOException {
        t.createOrReplaceTempView(view);
        Dataset<Row> q = spark.sql(QUERY.replace("{t}", view));
        q.queryExecution().executedPlan();
        acc.fs().dropTailCache();
        ModelCounters a = acc.device().modelCounters().orElseThrow();
        List<String> rows = SparkDrive.sortedRows(spark, QUERY, view);
        ModelCounters b = acc.device().modelCounters().orElseThrow();
        assertThat(rows).hasSize(500);
        return new long[] {(b.linkBytesIn() + b.linkBytesOut())
                - (a.linkBytesIn() + a.linkBytesOut()), rows.hashCode()};
    }

    private long chunkBytes() throws IOException {
        Path f = parquetFile();
        return f.getFileSystem(spark.sparkContext().hadoopConfiguration()).getFileStatus(f)
                .getLen();
    }

    /** The table's one file (Spark wrote it from one partition). */
    private Path parquetFile() throws IOException {
        Path dir = new Path(PATH);
        for (var st : dir.getFileSystem(spark.sparkContext().hadoopConfiguration())
                .listStatus(dir)) {
            if (st.getPath().getName().endsWith(".parquet")) {
                return st.getPath();
            }
        }
        throw new AssertionError("no Parquet file in " + PATH);
    }
}
