package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.DriveLog;
import org.smartssd.scan.PlacementCalibration;

/**
 * A query planned with {@code placement=auto}, once and again in the same JVM, over a drive
 * opened in-process ({@code emu:}) and one served by smartssd-devd ({@code unix:}): the first
 * calibrates the drive (its probe runs), the second reuses that calibration and runs no
 * probe; both give the count of the records written, and the planner's log messages name
 * the drive. Each query's time is printed (never asserted) for the record of where a first
 * query's time goes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FirstQueryTest {
    static final int RECORDS = 40_000;
    static final String Q = "SELECT region, count(*) FROM t GROUP BY region ORDER BY region";

    @TempDir
    static Path dir;
    SparkSession spark;
    Devd devd;
    byte[] data;

    @BeforeAll
    void start() throws Exception {
        long t0 = System.nanoTime();
        Path emu = dir.resolve("e.img");
        Path served = dir.resolve("u.img");
        SmartSsdDevice.formatEmulated(emu, null, 256L << 20, 0);
        SmartSsdDevice.formatEmulated(served, null, 256L << 20, 0);
        devd = Devd.start(served, dir.resolve("u.sock"), Duration.ofSeconds(30));
        long t1 = System.nanoTime();
        spark = SparkSession.builder().master("local[2]").appName("first-query")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.hadoop.smartssd.device.e.uri", "emu:" + emu)
                .config("spark.hadoop.smartssd.device.u.uri", devd.uri())
                .getOrCreate();
        // the suite's other classes may have made the session first: its Hadoop
        // configuration then lacks the builder's keys
        spark.sparkContext().hadoopConfiguration().set("smartssd.device.e.uri", "emu:" + emu);
        spark.sparkContext().hadoopConfiguration().set("smartssd.device.u.uri", devd.uri());
        long t2 = System.nanoTime();
        data = SparkDrive.wc98(RECORDS, 20, 31);
        for (String drive : List.of("e", "u")) {
            Configuration conf = spark.sparkContext().hadoopConfiguration();
            try (FileSystem fs = FileSystem.newInstance(URI.create("smartssd://" + drive + "/"),
                    conf); OutputStream out = fs.create(new org.apache.hadoop.fs.Path("/wc"))) {
                out.write(data);
            }
        }
        long t3 = System.nanoTime();
        System.err.printf("first-query: format+devd %d ms, spark session %d ms, load %d ms%n",
                (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000);
    }

    @AfterAll
    void stop() throws Exception {
        if (devd != null) {
            devd.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"e", "u"})
    void theSecondQueryRunsNoCalibrationProbe(String drive) {
        spark.read().format("smartssd").option("placement", "auto").option("layout", "wc98")
                .option("mapreduce.input.fileinputformat.split.maxsize", "131072")
                .load("smartssd://" + drive + "/wc").createOrReplaceTempView("t");
        long probes0 = PlacementCalibration.probeRuns();
        long t0 = System.nanoTime();
        List<Row> first;
        List<Row> second;
        long t1;
        long probes1;
        try (LogCapture log = new LogCapture()) {
            first = spark.sql(Q).collectAsList();
            t1 = System.nanoTime();
            probes1 = PlacementCalibration.probeRuns();
            second = spark.sql(Q).collectAsList();
            // the planner's messages (the calibration, probed then reused; the placement)
            // each name the drive
            assertThat(log.events).extracting(e -> e.getLoggerName())
                    .contains("org.smartssd.scan.PlacementCalibration",
                            "org.smartssd.spark.PartitionPlacement");
            String uri = spark.sparkContext().hadoopConfiguration()
                    .get("smartssd.device." + drive + ".uri");
            assertThat(log.events).allSatisfy(e -> assertThat(e.getContextData()
                    .<String>getValue(DriveLog.KEY)).as(e.getMessage().getFormattedMessage())
                    .isIn(drive, uri));
        }
        long t2 = System.nanoTime();
        long probes2 = PlacementCalibration.probeRuns();
        System.err.printf("first-query %s: first %d ms (%d probe runs), second %d ms (%d)%n",
                drive, (t1 - t0) / 1_000_000, probes1 - probes0, (t2 - t1) / 1_000_000,
                probes2 - probes1);

        assertThat(probes1 - probes0).as("probe runs of the first query").isPositive();
        assertThat(probes2 - probes1).as("probe runs of the second query").isZero();
        long[] byRegion = new long[8];  // region: the server byte's top 3 bits
        for (int i = 0; i < RECORDS; i++) {
            byRegion[(data[i * 20 + 19] & 0xFF) >> 5]++;
        }
        long total = 0;
        for (Row r : second) {
            assertThat(r.getLong(1)).isEqualTo(byRegion[((Number) r.get(0)).intValue()]);
            total += r.getLong(1);
        }
        assertThat(total).isEqualTo(RECORDS);
        assertThat(second).isEqualTo(first);
    }
}
