package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.smartssd.scan.Placement;

/**
 * The connector's pushdown queries with {@code placement} = device, host and auto, on
 * {@code local[2]} over one emulated drive: every placement gives the answer of an
 * independent reference (Spark over rows the test decodes from the same bytes, or Spark's
 * own text reader over the same bytes in a local file), and the scan's metrics say where each
 * partition ran. Tables are cut into many small partitions so {@code auto} has a queue to
 * share; its host rate is configured (deterministic), between the device's and the link's
 * costs, so both sides take partitions.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SmartSsdPlacementTest {
    static final int WC_RECORDS = 30_000;
    static final int MX_RECORDS = 10_000;
    static final int LINES = 6_000;
    static final String SPLIT = "mapreduce.input.fileinputformat.split.maxsize";
    /** Host CPU per byte for auto, configured near the device's cost per byte (Q1: about
     *  17 ns with the link) so that both sides take partitions. */
    static final String HOST_RATE = "12";
    static final List<String> PLACEMENTS = List.of("device", "host", "auto");

    static final String Q1 = "SELECT region, count(*) FROM {t} GROUP BY region";

    SparkSession spark;
    SparkDrive drive;
    String wcPath;
    int wcPartitions;
    long wcBytes;
    String txPath;
    long txBytes;

    @BeforeAll
    void load() throws Exception {
        drive = SparkDrive.get();
        spark = drive.spark;
        byte[] wc = SparkDrive.wc98(WC_RECORDS, 20, 21);
        byte[] mx = SparkDrive.mixed(MX_RECORDS, 23);
        String csv = SmartSsdTextTest.text(LINES, ',', '\n', 25);
        String tab = SmartSsdTextTest.text(LINES / 2, '\t', ';', 26);
        wcPath = drive.put("/place/wc", wc);
        wcBytes = wc.length;
        String mxPath = drive.put("/place/mx", mx);
        String csvPath = drive.put("/place/t.csv", csv.getBytes(StandardCharsets.UTF_8));
        txPath = csvPath;
        txBytes = csv.getBytes(StandardCharsets.UTF_8).length;
        String tabPath = drive.put("/place/t.tsv", tab.getBytes(StandardCharsets.UTF_8));
        Path local = drive.dir.resolve("place-t.csv");
        Files.writeString(local, csv);
        Path localTab = drive.dir.resolve("place-t.tsv");
        Files.writeString(localTab, tab);

        for (String p : PLACEMENTS) {
            reader(p).option("layout", "wc98").option(SPLIT, "65536").load(wcPath)
                    .createOrReplaceTempView("wc_" + p);
            reader(p).option("layout", SparkDrive.MIXED_LAYOUT)
                    .option("recordSize", String.valueOf(SparkDrive.MIXED_RECORD))
                    .option(SPLIT, "32768").load(mxPath).createOrReplaceTempView("mx_" + p);
            reader(p).option("layout", SmartSsdTextTest.LAYOUT).option("sep", ",")
                    .option(SPLIT, "16384").load(csvPath).createOrReplaceTempView("tx_" + p);
            reader(p).option("layout", SmartSsdTextTest.LAYOUT).option("sep", "\\t")
                    .option("lineSep", ";").option(SPLIT, "8192").load(tabPath)
                    .createOrReplaceTempView("tt_" + p);
        }
        spark.createDataFrame(SparkDrive.wc98Rows(wc, 20), StructType.fromDDL(
                SparkDrive.WC98_DDL)).createOrReplaceTempView("wc_ref");
        spark.createDataFrame(SparkDrive.mixedRows(mx), StructType.fromDDL(
                SparkDrive.MIXED_DDL)).createOrReplaceTempView("mx_ref");
        SmartSsdTextTest.reference(spark, "tx", local, "\n", ",");
        SmartSsdTextTest.reference(spark, "tt", localTab, ";", "\t");
        wcPartitions = nonEmptyPartitions("wc_device");
    }

    private DataFrameReader reader(String placement) {
        return spark.read().format("smartssd").option("placement", placement)
                .option(Placement.HOST_NS_PER_BYTE, HOST_RATE);
    }

    private int nonEmptyPartitions(String view) {
        int n = 0;
        for (InputPartition p : partitions("SELECT * FROM " + view)) {
            n += ((SmartSsdPartition) p).length() > 0 ? 1 : 0;
        }
        return n;
    }

    /**
     * Pushdown queries of every kind (from the connector tests' matrices, a subset to keep
     * CI short): filters of each kind (comparisons, AND/OR/NOT, IN with NULL, {@code <=>},
     * string matches, signed and 64-bit fields, projected and whole records, counts),
     * aggregates with and without GROUP BY (one to four keys), top-N, limits, over
     * fixed-width records and delimited text.
     */
    static Stream<Arguments> queries() {
        Stream<Arguments> wc = Stream.of(
                "SELECT * FROM {t} WHERE size > 15000",
                "SELECT timestamp, size FROM {t} WHERE method <> 1 AND type = 7",
                "SELECT clientID FROM {t} WHERE clientID <= 20 OR clientID >= 4990",
                "SELECT timestamp FROM {t} WHERE NOT (type IN (1, NULL)) ",
                "SELECT timestamp FROM {t} WHERE type <=> 5 AND clientID < 100",
                "SELECT objectID, region FROM {t} WHERE region = 3 AND statusCode > 60",
                "SELECT count(*) FROM {t} WHERE size > 10000",
                "SELECT count(*), count(size), sum(size), min(size), max(size) FROM {t}",
                Q1,
                "SELECT region, type, method, status, count(*), sum(size), max(size) FROM {t} "
                        + "GROUP BY region, type, method, status",
                "SELECT method, count(*), sum(clientID) FROM {t} WHERE region = 2 GROUP BY method",
                "SELECT timestamp, size FROM {t} ORDER BY timestamp DESC LIMIT 7",
                "SELECT timestamp, size FROM {t} WHERE type = 3 ORDER BY timestamp DESC LIMIT 4",
                "SELECT count(*) FROM (SELECT timestamp FROM {t} WHERE type = 3 LIMIT 25)",
                "SELECT region, type, c FROM (SELECT region, type, count(*) c, row_number() OVER "
                        + "(PARTITION BY region ORDER BY count(*) DESC, type) rn FROM {t} "
                        + "GROUP BY region, type) WHERE rn <= 5")
                .map(q -> Arguments.of("wc", q));
        Stream<Arguments> mx = Stream.of(
                "SELECT id, name FROM {t} WHERE name IN ('beta\u0000\u0000', 'betamx') "
                        + "AND id < 500",
                "SELECT id, name FROM {t} WHERE name IN ('beta', 'alp') AND score > 900",
                "SELECT id FROM {t} WHERE endswith(name, 'p') AND score < -950",
                "SELECT id FROM {t} WHERE startswith(name, 'alp') AND score > 990",
                "SELECT id FROM {t} WHERE contains(name, 'am') AND score < -995",
                "SELECT id FROM {t} WHERE endswith(name, 'a\u0000') AND score > 990",
                "SELECT id, big FROM {t} WHERE big > 18000000000000000000",
                "SELECT id, wide FROM {t} WHERE wide < -9000000000000000000",
                "SELECT count(*), sum(score), min(score), max(score), avg(score) FROM {t}",
                "SELECT flags, sum(score), min(score) FROM {t} GROUP BY flags",
                "SELECT id, score FROM {t} ORDER BY score, id LIMIT 3",
                "SELECT score, name FROM {t} WHERE name = 'betamx' ORDER BY score DESC LIMIT 2")
                .map(q -> Arguments.of("mx", q));
        Stream<Arguments> tx = Stream.of(
                "SELECT * FROM {t}",
                "SELECT id, n FROM {t} WHERE n > 500",
                "SELECT id FROM {t} WHERE n IS NULL",
                "SELECT id FROM {t} WHERE NOT (n <=> 5)",
                "SELECT id FROM {t} WHERE n IN (1, NULL) OR k = 9",
                "SELECT id FROM {t} WHERE n > 3000000000 OR k = 2",
                "SELECT id, name FROM {t} WHERE name = 'beta'",
                "SELECT id FROM {t} WHERE name LIKE '%ta' OR name LIKE '%a x'",
                "SELECT count(*) FROM {t} WHERE n > 0 AND name = 'gamma'",
                "SELECT count(n), sum(n), min(n), max(n) FROM {t}",
                "SELECT min(id), max(id) FROM {t}",
                "SELECT count(*) FROM (SELECT id FROM {t} WHERE n > 900 LIMIT 7)")
                .map(q -> Arguments.of("tx", q));
        Stream<Arguments> tt = Stream.of(
                "SELECT * FROM {t}",
                "SELECT id FROM {t} WHERE name LIKE 'al%' AND n < 0",
                "SELECT count(n), sum(n), min(n), max(n) FROM {t}")
                .map(q -> Arguments.of("tt", q));
        return Stream.of(wc, mx, tx, tt).flatMap(x -> TestTier.everyNthUnlessFull(x, 3));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("queries")
    void everyPlacementGivesTheReferenceAnswer(String table, String sql) {
        List<String> expected = SparkDrive.sortedRows(spark, sql, table + "_ref");
        for (String p : PLACEMENTS) {
            assertThat(SparkDrive.sortedRows(spark, sql, table + "_" + p))
                    .as("placement %s: %s", p, sql).isEqualTo(expected);
        }
    }

    /** The scan node's SQL metrics after one run of {@code sql} over {@code view}. */
    private Map<String, Long> metrics(String sql, String view) {
        // without adaptive execution the executed plan keeps the scan node as its leaf
        String aqe = spark.conf().get("spark.sql.adaptive.enabled");
        spark.conf().set("spark.sql.adaptive.enabled", "false");
        try {
            return SmartSsdPushdownTest.metrics(spark.sql(sql.replace("{t}", view)));
        } finally {
            spark.conf().set("spark.sql.adaptive.enabled", aqe);
        }
    }

    @Test
    void metricsSayWhereEachPartitionRan() {
        assertThat(wcPartitions).isGreaterThan(4);
        Map<String, Long> dev = metrics(Q1, "wc_device");
        assertThat(dev.get(DriveMetrics.ON_DEVICE)).isEqualTo(wcPartitions);
        assertThat(dev.get(DriveMetrics.ON_HOST)).isZero();
        assertThat(dev.get(DriveMetrics.EST_DEVICE)).isPositive();
        assertThat(dev.get(DriveMetrics.MODELLED_DEVICE)).isPositive();
        assertThat(dev.get(DriveMetrics.SCANNED)).isEqualTo(wcBytes);

        Map<String, Long> host = metrics(Q1, "wc_host");
        assertThat(host.get(DriveMetrics.ON_HOST)).isEqualTo(wcPartitions);
        assertThat(host.get(DriveMetrics.ON_DEVICE)).isZero();
        assertThat(host.get(DriveMetrics.SCANNED)).as("the drive ran no tasklet").isZero();
        assertThat(host.get(DriveMetrics.LINK)).as("every record crossed the link")
                .isEqualTo(wcBytes);
        assertThat(host.get(DriveMetrics.EST_HOST)).isPositive();
        assertThat(host.get(DriveMetrics.MODELLED_HOST)).isPositive();
        assertThat(host.get(DriveMetrics.HOST_CPU)).isPositive();

        Map<String, Long> auto = metrics(Q1, "wc_auto");
        assertThat(auto.get(DriveMetrics.ON_DEVICE)).as("auto: on the device").isPositive();
        assertThat(auto.get(DriveMetrics.ON_HOST)).as("auto: on the host").isPositive();
        assertThat(auto.get(DriveMetrics.ON_DEVICE) + auto.get(DriveMetrics.ON_HOST))
                .isEqualTo(wcPartitions);
        // the host's estimate is its model at the calibrated rates: bytes over the link plus
        // the configured rate, so the two agree exactly for whole-record partitions
        assertThat(auto.get(DriveMetrics.MODELLED_HOST)).isPositive();
        assertThat(auto.get(DriveMetrics.SCANNED) + auto.get(DriveMetrics.LINK))
                .isGreaterThan(0);
        System.out.println("placement metrics of Q1: device " + dev + "\nhost " + host
                + "\nauto " + auto);
    }

    /**
     * A pushed LIMIT over smartssd:// in every placement: each partition's reader returns at
     * most the limit (exactly it here: every partition holds more matches), drive and host
     * alike, and the rows are distinct matching records.
     */
    @Test
    void aPushedLimitBoundsEveryPartitionInEveryPlacement() throws Exception {
        java.util.Set<Long> matching = new java.util.HashSet<>();
        spark.sql("SELECT timestamp FROM wc_ref WHERE type = 3").collectAsList()
                .forEach(r -> matching.add(r.getLong(0)));
        String sql = "SELECT timestamp FROM {t} WHERE type = 3 LIMIT 25";
        for (String p : PLACEMENTS) {
            java.util.Set<Long> seen = new java.util.HashSet<>();
            long[] sides = new long[2];
            for (SparkDrive.PartitionRead part
                    : SparkDrive.readPartitions(spark.sql(sql.replace("{t}", "wc_" + p)))) {
                if (part.metrics().get(DriveMetrics.ON_DEVICE)
                        + part.metrics().get(DriveMetrics.ON_HOST) == 0) {
                    continue; // an empty partition runs nothing
                }
                assertThat(part.rows()).as("placement %s: %s", p, part.metrics()).hasSize(25);
                for (var r : part.rows()) {
                    assertThat(matching).contains(r.getLong(0));
                    assertThat(seen.add(r.getLong(0))).as("returned twice").isTrue();
                }
                sides[0] += part.metrics().get(DriveMetrics.ON_DEVICE);
                sides[1] += part.metrics().get(DriveMetrics.ON_HOST);
            }
            assertThat(sides[0] + sides[1]).as(p).isEqualTo(wcPartitions);
            if (p.equals("auto")) {
                assertThat(sides[0]).as("auto: on the device").isPositive();
                assertThat(sides[1]).as("auto: on the host").isPositive();
            }
        }
    }

    /**
     * Text at the test's host rate goes wholly to the host, and rightly: the drive's model
     * prices its text filter at about 100 ns a byte (lines and columns cut byte by byte by the
     * ISP core) against about 2 ns for wc98's fixed records, and the host's 12 ns/B plus the
     * link's 4 is far less. Both estimates are the models of the runs they predict (device:
     * the run's counted work priced; host: the bytes it read over the link at the rates), and
     * with the host's rate near the drive's cost of text, auto uses both sides.
     */
    @Test
    void textPlacementFollowsTheDrivesModelOfText() {
        String q = "SELECT id, n FROM {t} WHERE n > 500";
        Map<String, Long> dev = metrics(q, "tx_device");
        Map<String, Long> host = metrics(q, "tx_host");
        assertThat(dev.get(DriveMetrics.EST_DEVICE)).as("device: estimate vs model %s", dev)
                .isCloseTo(dev.get(DriveMetrics.MODELLED_DEVICE), withinPercentage(10));
        assertThat(host.get(DriveMetrics.EST_HOST)).as("host: estimate vs model %s", host)
                .isCloseTo(host.get(DriveMetrics.MODELLED_HOST), withinPercentage(10));
        double deviceNsPerByte = dev.get(DriveMetrics.EST_DEVICE) / (double) txBytes;
        double hostNsPerByte = host.get(DriveMetrics.EST_HOST) / (double) txBytes;
        assertThat(deviceNsPerByte).as("text in the drive costs more than on the host at %s "
                + "ns/B", HOST_RATE).isGreaterThan(2 * hostNsPerByte);
        Map<String, Long> auto = metrics(q, "tx_auto");
        assertThat(auto.get(DriveMetrics.ON_HOST)).isEqualTo(host.get(DriveMetrics.ON_HOST));
        assertThat(auto.get(DriveMetrics.ON_DEVICE)).isZero();

        // the host's rate set so that a partition costs the same on either side
        double linkNsPerByte = hostNsPerByte - Double.parseDouble(HOST_RATE);
        spark.read().format("smartssd").option("placement", "auto")
                .option(Placement.HOST_NS_PER_BYTE,
                        String.valueOf(deviceNsPerByte - linkNsPerByte))
                .option("layout", SmartSsdTextTest.LAYOUT).option("sep", ",")
                .option(SPLIT, "16384").load(txPath).createOrReplaceTempView("tx_even");
        Map<String, Long> even = metrics(q, "tx_even");
        assertThat(even.get(DriveMetrics.ON_DEVICE)).as("even rates: %s", even).isPositive();
        assertThat(even.get(DriveMetrics.ON_HOST)).as("even rates: %s", even).isPositive();
        assertThat(SparkDrive.sortedRows(spark, q, "tx_even"))
                .isEqualTo(SparkDrive.sortedRows(spark, q, "tx_ref"));
        System.out.printf("text placement: device estimated %d ns (modelled %d), host "
                + "estimated %d ns (modelled %d) over %d B; even rates: %s%n",
                dev.get(DriveMetrics.EST_DEVICE), dev.get(DriveMetrics.MODELLED_DEVICE),
                host.get(DriveMetrics.EST_HOST), host.get(DriveMetrics.MODELLED_HOST), txBytes,
                even);
    }

    /**
     * {@code auto} drains each node's partitions in one task (one node here: one Spark
     * partition holding every range), and the plan-only scan keeps a partition a range; both
     * answer as the reference, and a drained scan repeats its sides and modelled times.
     */
    @Test
    void autoDrainsANodesPartitionsInOneTaskAndRepeatsToTheLastDigit() {
        reader("auto").option(Placement.DRAIN, "false").option("layout", "wc98")
                .option(SPLIT, "65536").load(wcPath).createOrReplaceTempView("wc_planned");
        InputPartition[] drained = partitions(Q1.replace("{t}", "wc_auto"));
        assertThat(drained).hasSize(1);
        assertThat(drained[0]).isInstanceOf(NodeDrainPartition.class);
        assertThat(((NodeDrainPartition) drained[0]).parts().stream()
                .filter(p -> p.length() > 0)).hasSize(wcPartitions);
        assertThat(partitions(Q1.replace("{t}", "wc_planned")))
                .hasSize(drained[0] instanceof NodeDrainPartition d ? d.parts().size() : -1)
                .allMatch(p -> p instanceof SmartSsdPartition s && s.side() != null);
        for (String view : List.of("wc_auto", "wc_planned")) {
            assertThat(SparkDrive.sortedRows(spark, Q1, view)).as(view)
                    .isEqualTo(SparkDrive.sortedRows(spark, Q1, "wc_ref"));
        }
        Map<String, Long> planned = metrics(Q1, "wc_planned");
        assertThat(planned.get(DriveMetrics.DRAIN_ROUNDS)).isZero();
        Map<String, Long> first = metrics(Q1, "wc_auto");
        Map<String, Long> again = metrics(Q1, "wc_auto");
        assertThat(first.get(DriveMetrics.DRAIN_ROUNDS)).isGreaterThan(1);
        assertThat(first.get(DriveMetrics.ON_DEVICE) + first.get(DriveMetrics.ON_HOST))
                .isEqualTo(wcPartitions);
        for (String m : List.of(DriveMetrics.ON_DEVICE, DriveMetrics.ON_HOST,
                DriveMetrics.MODELLED_DEVICE, DriveMetrics.MODELLED_HOST,
                DriveMetrics.DRAIN_ROUNDS, DriveMetrics.DRAIN_MOVED)) {
            assertThat(again.get(m)).as("%s, run again", m).isEqualTo(first.get(m));
        }
        System.out.println("drained Q1: " + first + "\nplan only: " + planned);
    }

    /** The partitions of the scan of {@code sql}, a table ({@code SELECT * FROM view}: a
     *  plain read, never placed) or a query whose operations are pushed. */
    private InputPartition[] partitions(String sql) {
        String aqe = spark.conf().get("spark.sql.adaptive.enabled");
        spark.conf().set("spark.sql.adaptive.enabled", "false");
        try {
            SmartSsdScan scan = (SmartSsdScan) ((org.apache.spark.sql.execution.datasources.v2
                    .BatchScanExec) spark.sql(sql).queryExecution().executedPlan()
                    .collectLeaves().head()).scan();
            return scan.toBatch().planInputPartitions();
        } finally {
            spark.conf().set("spark.sql.adaptive.enabled", aqe);
        }
    }

    @Test
    void autoFollowsTheCalibratedRates() {
        spark.read().format("smartssd").option("placement", "auto")
                .option(Placement.HOST_NS_PER_BYTE, "1000000").option("layout", "wc98")
                .option(SPLIT, "65536").load(wcPath).createOrReplaceTempView("wc_slowhost");
        spark.read().format("smartssd").option("placement", "auto")
                .option(Placement.HOST_NS_PER_BYTE, "0.000001")
                .option(Placement.LINK_NS_PER_BYTE, "0").option("layout", "wc98")
                .option(SPLIT, "65536").load(wcPath).createOrReplaceTempView("wc_fasthost");
        Map<String, Long> slow = metrics(Q1, "wc_slowhost");
        assertThat(slow.get(DriveMetrics.ON_DEVICE)).isEqualTo(wcPartitions);
        assertThat(slow.get(DriveMetrics.ON_HOST)).isZero();
        Map<String, Long> fast = metrics(Q1, "wc_fasthost");
        assertThat(fast.get(DriveMetrics.ON_HOST)).isEqualTo(wcPartitions);
        assertThat(fast.get(DriveMetrics.ON_DEVICE)).isZero();
        assertThat(SparkDrive.sortedRows(spark, Q1, "wc_fasthost"))
                .isEqualTo(SparkDrive.sortedRows(spark, Q1, "wc_ref"));
    }

    @Test
    void sessionDefaultAndOptionOverride() {
        org.apache.hadoop.conf.Configuration h = spark.sparkContext().hadoopConfiguration();
        h.set(Placement.KEY, "host");
        try {
            spark.read().format("smartssd").option("layout", "wc98").option(SPLIT, "65536")
                    .load(wcPath).createOrReplaceTempView("wc_session");
            spark.read().format("smartssd").option("layout", "wc98").option(SPLIT, "65536")
                    .option("placement", "device").load(wcPath)
                    .createOrReplaceTempView("wc_override");
            assertThat(metrics(Q1, "wc_session").get(DriveMetrics.ON_HOST))
                    .isEqualTo(wcPartitions);
            assertThat(metrics(Q1, "wc_override").get(DriveMetrics.ON_DEVICE))
                    .isEqualTo(wcPartitions);
        } finally {
            h.unset(Placement.KEY);
        }
        spark.read().format("smartssd").option("layout", "wc98").load(wcPath)
                .createOrReplaceTempView("wc_unset");
        Map<String, Long> unset = metrics(Q1, "wc_unset");
        assertThat(unset.get(DriveMetrics.ON_DEVICE) + unset.get(DriveMetrics.ON_HOST))
                .as("unset: the drive, nothing planned").isZero();
        assertThat(unset.get(DriveMetrics.SCANNED)).isEqualTo(wcBytes);
    }

    @Test
    void explainNamesThePlacement() {
        String plan = spark.sql(Q1.replace("{t}", "wc_auto")).queryExecution().executedPlan()
                .toString();
        assertThat(plan).contains("placement: auto");
    }

    @Test
    void unknownPlacementIsNamed() {
        assertThatThrownBy(() -> spark.read().format("smartssd").option("layout", "wc98")
                .option("placement", "gpu").load(wcPath).collect())
                .hasStackTraceContaining("option 'placement' is 'device', 'host' or 'auto', "
                        + "got 'gpu'");
    }
}
