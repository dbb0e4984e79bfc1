package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.smartssd.device.SmartSsdDevice;

/**
 * {@code df.write.format("smartssd")}: the bytes written are the records' (checked against
 * the bytes the rows came from), the layout is stored so reads need no option, the save
 * modes behave as Spark's, and failures (a bad value, a full drive) leave no partial table.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SmartSsdWriteTest {
    SparkSession spark;
    SparkDrive drive;
    byte[] wc;
    Dataset<Row> wcRows;

    @BeforeAll
    void setUp() throws Exception {
        drive = SparkDrive.get();
        spark = drive.spark;
        wc = SparkDrive.wc98(5000, 20, 11);
        wcRows = spark.createDataFrame(SparkDrive.wc98Rows(wc, 20),
                StructType.fromDDL(SparkDrive.WC98_DDL));
    }

    private byte[] bytesOf(String path) throws Exception {
        FileSystem fs = drive.fs();
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (InputStream in = fs.open(new org.apache.hadoop.fs.Path(path))) {
            in.transferTo(b);
        }
        return b.toByteArray();
    }

    private static List<String> sorted(Dataset<Row> df) {
        List<String> out = new ArrayList<>();
        df.collectAsList().forEach(r -> out.add(r.toString()));
        out.sort(null);
        return out;
    }

    private boolean exists(String path) throws Exception {
        return drive.fs().exists(new org.apache.hadoop.fs.Path(path));
    }

    @Test
    void writesTheRecordsAndStoresTheLayout() throws Exception {
        String path = "smartssd://" + SparkDrive.DRIVE + "/out/wc";
        wcRows.write().format("smartssd").option("layout", "wc98").save(path);
        assertThat(bytesOf(path)).isEqualTo(wc);
        // the layout is the data object's attribute; no side object, no temporary left
        org.apache.hadoop.fs.Path hp = new org.apache.hadoop.fs.Path(path);
        assertThat(new String(drive.fs().getXAttr(hp, "user.smartssd.layout"),
                StandardCharsets.UTF_8)).isEqualTo("layout=wc98\nrecordSize=20\n");
        assertThat(drive.fs().listStatus(hp.getParent()))
                .noneMatch(s -> s.getPath().getName().startsWith(".wc"));
        Dataset<Row> back = spark.read().format("smartssd").load(path);
        assertThat(back.schema()).isEqualTo(wcRows.schema());
        assertThat(sorted(back)).isEqualTo(sorted(wcRows));
        // pushdown works on the written table: Q1 in the drive
        assertThat(back.groupBy("region").count().queryExecution().executedPlan().toString())
                .contains("PushedAggregates: [COUNT(*)]");

        assertThatThrownBy(() -> wcRows.write().format("smartssd").option("layout", "wc98")
                .save(path)).hasMessageContaining("already exists");
        wcRows.limit(10).write().format("smartssd").mode(SaveMode.Ignore).save(path);
        assertThat(bytesOf(path)).isEqualTo(wc);

        wcRows.write().format("smartssd").mode(SaveMode.Append).save(path);
        assertThat(back.count()).isEqualTo(10_000);
        byte[] twice = bytesOf(path);
        assertThat(twice.length).isEqualTo(2 * wc.length);

        wcRows.limit(7).write().format("smartssd").mode(SaveMode.Overwrite)
                .option("layout", "wc98").option("recordSize", "32").save(path);
        Dataset<Row> seven = spark.read().format("smartssd").load(path);
        assertThat(seven.count()).isEqualTo(7);
        assertThat(bytesOf(path)).hasSize(7 * 32);
        assertThat(new String(drive.fs().getXAttr(hp, "user.smartssd.layout"),
                StandardCharsets.UTF_8)).isEqualTo("layout=wc98\nrecordSize=32\n");
    }

    /** A string shorter than its bytes(W) field reads back without the NULs that pad it, and
     *  compares as written, pushed into the drive or not. */
    @Test
    void fixedWidthStringsReadBackAsWritten() throws Exception {
        String path = "smartssd://" + SparkDrive.DRIVE + "/out/pay";
        String[] pays = {"card", "cash", "no charge", "", "dispute"};
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            rows.add(RowFactory.create(i, pays[i % pays.length]));
        }
        Dataset<Row> df = spark.createDataFrame(rows, StructType.fromDDL("id INT, pay STRING"));
        df.write().format("smartssd").option("layout", "id:i32@0, pay:bytes(9)@4").save(path);

        for (String columnar : List.of("true", "false")) {
            Dataset<Row> back = spark.read().format("smartssd").option("columnar", columnar)
                    .load(path);
            assertThat(sorted(back)).as("columnar %s", columnar).isEqualTo(sorted(df));
        }
        for (String push : List.of("true", "false")) {
            Dataset<Row> back = spark.read().format("smartssd").option("pushDownPredicate", push)
                    .load(path);
            assertThat(back.filter("pay = 'card'").count()).as("pushed %s", push).isEqualTo(200);
            assertThat(back.filter("pay = ''").count()).as("pushed %s", push).isEqualTo(200);
            assertThat(back.filter("pay IN ('cash', 'dispute')").count()).isEqualTo(400);
            assertThat(back.filter("pay LIKE '%h'").count()).as("pushed %s", push)
                    .isEqualTo(200);
            assertThat(back.filter("pay = 'card'").select("pay").distinct().collectAsList())
                    .containsExactly(RowFactory.create("card"));
        }
        // what a NUL-padded field cannot keep is refused, not silently cut
        Dataset<Row> nul = spark.createDataFrame(List.of(RowFactory.create(1, "ab\0")),
                StructType.fromDDL("id INT, pay STRING"));
        assertThatThrownBy(() -> nul.write().format("smartssd").mode(SaveMode.Append).save(path))
                .hasStackTraceContaining("ends in a NUL byte");
        assertThat(spark.read().format("smartssd").load(path).count()).isEqualTo(1000);
    }

    /** Drives written before attributes kept the layout in a side object: still read. */
    @Test
    void readsTheSideObjectOfDrivesWrittenBefore() throws Exception {
        String path = "smartssd://" + SparkDrive.DRIVE + "/out/legacy";
        FileSystem fs = drive.fs();
        try (OutputStream out = fs.create(new org.apache.hadoop.fs.Path(path))) {
            out.write(wc);
        }
        try (OutputStream out = fs.create(new org.apache.hadoop.fs.Path(
                "smartssd://" + SparkDrive.DRIVE + "/out/.legacy.smartssd-layout"))) {
            out.write("layout=wc98\nrecordSize=20\n".getBytes(StandardCharsets.UTF_8));
        }
        Dataset<Row> back = spark.read().format("smartssd").load(path);
        assertThat(sorted(back)).isEqualTo(sorted(wcRows));
        // an overwrite moves it to the attribute and removes the side object
        wcRows.limit(3).write().format("smartssd").mode(SaveMode.Overwrite)
                .option("layout", "wc98").save(path);
        assertThat(exists("smartssd://" + SparkDrive.DRIVE + "/out/.legacy.smartssd-layout"))
                .isFalse();
        assertThat(spark.read().format("smartssd").load(path).count()).isEqualTo(3);
    }

    @Test
    void derivesALayoutFromTheRowsAndChecksAppends() throws Exception {
        String path = "smartssd://" + SparkDrive.DRIVE + "/out/derived";
        Dataset<Row> df = spark.sql("SELECT CAST(id AS INT) a, id * 1000000000000 b, "
                + "CAST(id % 100 AS SMALLINT) c FROM range(-500, 1500)");
        df.write().format("smartssd").save(path);
        Dataset<Row> back = spark.read().format("smartssd").load(path);
        // c is nullable in the rows (a cast): the derived layout gives it a null flag
        assertThat(back.schema().toDDL()).isEqualTo("a INT NOT NULL,b BIGINT NOT NULL,"
                + "c INT");
        assertThat(sorted(back.selectExpr("a", "b", "CAST(c AS SMALLINT) c")))
                .isEqualTo(sorted(df));
        assertThat(spark.read().format("smartssd").load(path).where("a < 0").count())
                .isEqualTo(500);
        assertThatThrownBy(() -> wcRows.write().format("smartssd").option("layout", "wc98")
                .mode(SaveMode.Append).save(path)).hasMessageContaining("cannot append to");
        assertThat(back.count()).isEqualTo(2000);
    }

    @Test
    void aBadValueLeavesNoPartialTable() throws Exception {
        String path = "smartssd://" + SparkDrive.DRIVE + "/out/bad";
        Dataset<Row> bad = spark.sql("SELECT id timestamp, id clientID, id objectID, "
                + "IF(id = 3999, -1, id) size, 0 method, 0 status, 0 type, 0 server "
                + "FROM range(4000)");
        assertThatThrownBy(() -> bad.write().format("smartssd").option("layout", "wc98")
                .save(path)).hasMessageContaining("value -1 of column 'size' is outside the "
                + "field's 0..4294967295");
        assertThat(exists(path)).isFalse();
        assertThat(drive.fs().listStatus(new org.apache.hadoop.fs.Path("/out")))
                .noneMatch(s -> s.getPath().getName().contains("smartssd-tmp"));

        wcRows.write().format("smartssd").option("layout", "wc98").save(path);
        assertThatThrownBy(() -> bad.write().format("smartssd").mode(SaveMode.Append)
                .save(path)).hasMessageContaining("value -1 of column 'size'");
        assertThat(bytesOf(path)).isEqualTo(wc);
    }

    @Test
    void aFullDriveFailsClearlyAndLeavesNothing() throws Exception {
        Path image = drive.dir.resolve("small.img");
        // the smallest kang-smartssd drive: one block on each of its 64 dies
        SmartSsdDevice.formatEmulated(image, null, 64L << 20, 0);
        spark.sparkContext().hadoopConfiguration().set("smartssd.device.small.uri",
                "emu:" + image);
        String path = "smartssd://small/big";
        FileSystem fs = FileSystem.get(java.net.URI.create("smartssd://small/"),
                spark.sparkContext().hadoopConfiguration());
        // more records than the drive has room for (its capacity is whole blocks on every die)
        long records = fs.getStatus().getRemaining() / 20 + 50_000;
        Dataset<Row> many = spark.sql("SELECT id timestamp, id clientID, id objectID, id size, "
                + "0 method, 0 status, 0 type, 0 server FROM range(" + records + ")");
        assertThatThrownBy(() -> many.write().format("smartssd").option("layout", "wc98")
                .save(path)).hasMessageMatching("(?s).*write to smartssd://small/big failed: .*"
                        + "drive is full.*");
        assertThat(fs.listStatus(new org.apache.hadoop.fs.Path("/"))).isEmpty();
    }

    @Test
    void sqlTablesReadThroughTheConnector() throws Exception {
        String path = "smartssd://" + SparkDrive.DRIVE + "/out/sql";
        wcRows.write().format("smartssd").option("layout", "wc98").save(path);
        spark.sql("CREATE TABLE wc_sql USING smartssd OPTIONS (path '" + path
                + "', layout 'wc98')");
        try {
            Dataset<Row> q = spark.sql("SELECT region, count(*) FROM wc_sql GROUP BY region");
            assertThat(sorted(q)).isEqualTo(sorted(wcRows.groupBy("region").count()));
            assertThat(q.queryExecution().executedPlan().toString())
                    .contains("PushedAggregates: [COUNT(*)]");
        } finally {
            spark.sql("DROP TABLE wc_sql");
        }
    }

    static Row row(Object... v) {
        return RowFactory.create(v);
    }
}
