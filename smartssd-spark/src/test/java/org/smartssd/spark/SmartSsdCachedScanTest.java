package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.sscache.CachedFile;
import org.smartssd.fs.sscache.SsCacheConstants;
import org.smartssd.fs.sscache.SsCacheFileSystem;

/**
 * A table read through the drive's cache ({@code sscache://}, a {@code file://} backing
 * folder, an emulated drive with a cache part) on Spark local[2]: 100-byte wc98 records, so
 * records straddle the 8 KiB cache blocks. A pushed filter, a group-by aggregate and a top-N
 * each run cold (every block evicted: all on the host), warm (after a plain read filled the
 * cache: in the drive but the records across block-aligned partition edges) and partial
 * (every other block evicted: both sides in one partition). Each answer equals the same query
 * over a {@code smartssd://} copy and over rows decoded here independently of the connector;
 * the metrics split the records between drive and host as the test's own model of the
 * blocks says. A file changed behind the cache's back is done on the host, with the new
 * version's answer. Cold and partial read as one partition: the cache's stream reads 1 MiB
 * windows, so one partition's host reads would cache the blocks of partitions after it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SmartSsdCachedScanTest {
    static final String DRIVE = "cs0";
    static final int REC = 100;
    static final int N = 3000;
    static final String SPLIT = "65536";
    static final String CACHED = "sscache://" + DRIVE + "/data/requests.bin";
    static final String PLAIN = "smartssd://" + DRIVE + "/plain/requests.bin";

    SparkSession spark;
    final Map<String, String> drive = new HashMap<>();
    CachedFile file;
    long blocks;
    Path backing;

    @BeforeAll
    void load() throws Exception {
        SparkDrive d = SparkDrive.get();
        spark = d.spark;
        Path dir = Files.createDirectories(d.dir.resolve("cached"));
        Path image = dir.resolve(DRIVE + ".img");
        SmartSsdDevice.formatEmulated(image, null, 512L << 20, 0, 25);
        backing = Files.createDirectories(dir.resolve("backing"));
        drive.put("smartssd.device." + DRIVE + ".uri", "emu:" + image);
        drive.put(SsCacheConstants.CACHE_PREFIX + DRIVE + SsCacheConstants.BACKING_SUFFIX,
                backing.toUri().toString());
        Configuration conf = new Configuration(spark.sparkContext().hadoopConfiguration());
        drive.forEach(conf::set);

        byte[] data = SparkDrive.wc98(N, REC, 11);
        Files.createDirectories(backing.resolve("data"));
        Files.write(backing.resolve("data/requests.bin"), data);
        org.apache.hadoop.fs.Path plain = new org.apache.hadoop.fs.Path(PLAIN);
        try (var out = plain.getFileSystem(conf).create(plain, true)) {
            out.write(data);
        }
        org.apache.hadoop.fs.Path cached = new org.apache.hadoop.fs.Path(CACHED);
        FileSystem fs = cached.getFileSystem(conf);
        file = ((SsCacheFileSystem) fs).cachedFile(cached);
        blocks = ((long) N * REC + file.payload() - 1) / file.payload();

        reader(SPLIT).load(CACHED).createOrReplaceTempView("cs_cached");
        reader("1073741824").load(CACHED).createOrReplaceTempView("cs_cached_one");
        reader(SPLIT).load(PLAIN).createOrReplaceTempView("cs_plain");
        spark.createDataFrame(SparkDrive.wc98Rows(data, REC), StructType.fromDDL(
                SparkDrive.WC98_DDL)).createOrReplaceTempView("cs_ref");
        // the scan must stay a leaf of the executed plan for its metrics
        spark.conf().set("spark.sql.adaptive.enabled", "false");
    }

    @AfterAll
    void restore() {
        spark.conf().unset("spark.sql.adaptive.enabled");
    }

    private DataFrameReader reader(String split) {
        return spark.read().format("smartssd").options(drive).option("layout", "wc98")
                .option("recordSize", String.valueOf(REC))
                .option("mapreduce.input.fileinputformat.split.maxsize", split);
    }

    static Stream<String> queries() {
        return Stream.of(
                "SELECT timestamp, size FROM {t} WHERE method = 1 AND clientID < 2000",
                "SELECT region, count(*), sum(size), min(size), max(size) FROM {t} "
                        + "GROUP BY region",
                "SELECT timestamp, size FROM {t} ORDER BY size DESC LIMIT 9");
    }

    /** Evicts the file's blocks {@code b} for which {@code evict} holds. */
    private void evict(LongPredicate evict) throws Exception {
        for (long b = 0; b < blocks; b++) {
            if (evict.test(b)) {
                file.cache().evict(file.addressBase() + b, 1);
            }
        }
    }

    /** Records the drive must do: all their blocks present, inside one partition of
     *  {@code partBytes} (whole blocks). */
    private long inDrive(long partBytes, LongPredicate present) {
        long n = 0;
        for (long k = 0; k < N; k++) {
            long first = k * REC;
            long last = first + REC - 1;
            boolean ok = first / partBytes == last / partBytes;
            for (long b = first / file.payload(); b <= last / file.payload() && ok; b++) {
                ok = present.test(b);
            }
            n += ok ? 1 : 0;
        }
        return n;
    }

    /** The answer over the cached table equals the plain copy's and the reference's; the
     *  metrics of the run. */
    private Map<String, Long> check(String sql, String view) {
        List<String> expected = SparkDrive.sortedRows(spark, sql, "cs_ref");
        assertThat(SparkDrive.sortedRows(spark, sql, "cs_plain")).as("smartssd:// copy: %s", sql)
                .isEqualTo(expected);
        List<String> got = new java.util.ArrayList<>();
        var df = spark.sql(sql.replace("{t}", view));
        assertThat(df.queryExecution().executedPlan().toString()).as("pushed: %s", sql)
                .doesNotContain("tasklet: none");
        df.collectAsList().forEach(r -> got.add(r.toString()));
        Map<String, Long> m = SmartSsdPushdownTest.metricsOfLastRun(df);
        got.sort(null);
        assertThat(got).as("sscache:// %s: %s", view, sql).isEqualTo(expected);
        assertThat(m.get(DriveMetrics.CACHE_DRIVE_RECORDS) + m.get(DriveMetrics.CACHE_HOST_RECORDS))
                .as("every record done once: %s; metrics %s of %s", sql, m,
                        df.queryExecution().executedPlan()).isEqualTo(N);
        assertThat(m.get(DriveMetrics.CACHE_DRIVE_BYTES))
                .isEqualTo(m.get(DriveMetrics.CACHE_DRIVE_RECORDS) * REC);
        assertThat(m.get(DriveMetrics.CACHE_HOST_BYTES))
                .isEqualTo(m.get(DriveMetrics.CACHE_HOST_RECORDS) * REC);
        return m;
    }

    @ParameterizedTest
    @MethodSource("queries")
    void coldWarmAndPartialEqualTheUncachedScan(String sql) throws Exception {
        evict(b -> true);
        Map<String, Long> cold = check(sql, "cs_cached_one");
        assertThat(cold.get(DriveMetrics.CACHE_DRIVE_RECORDS)).as("cold: %s", sql).isZero();
        assertThat(cold.get(DriveMetrics.TIME)).as("cold: no tasklet ran").isZero();

        // a plain read fills the cache
        evict(b -> true);
        assertThat(spark.sql("SELECT * FROM cs_cached").collectAsList()).hasSize(N);
        long partBytes = Long.parseLong(SPLIT) / file.payload() * file.payload();
        long warmDrive = inDrive(partBytes, b -> true);
        Map<String, Long> warm = check(sql, "cs_cached");
        assertThat(warm.get(DriveMetrics.CACHE_DRIVE_RECORDS)).as("warm: %s", sql)
                .isEqualTo(warmDrive);
        assertThat(N - warmDrive).as("only records across partition edges on the host")
                .isBetween(1L, blocks);
        assertThat(warm.get(DriveMetrics.SCANNED)).isEqualTo(warmDrive * REC);
        assertThat(warm.get(DriveMetrics.TIME)).as("modelled device time").isPositive();

        evict(b -> b % 2 == 1);
        long partialDrive = inDrive(Long.MAX_VALUE / 2, b -> b % 2 == 0);
        assertThat(partialDrive).isBetween(1L, N - 1L);
        Map<String, Long> partial = check(sql, "cs_cached_one");
        assertThat(partial.get(DriveMetrics.CACHE_DRIVE_RECORDS)).as("partial: %s", sql)
                .isEqualTo(partialDrive);
    }

    /**
     * A pushed LIMIT is the partition's, not each side's: the drive's rows and the host's
     * together are at most the limit, and the host reads nothing once the drive met it. The
     * rows each partition's reader returns are counted directly (Spark's LIMIT above the scan
     * would hide an excess from the answer).
     */
    @Test
    void aPushedLimitBoundsThePartitionNotEachSide() throws Exception {
        String sql = "SELECT timestamp FROM {t} WHERE clientID < 2000 LIMIT ";
        java.util.Set<Long> matching = new java.util.HashSet<>();
        spark.sql("SELECT timestamp FROM cs_ref WHERE clientID < 2000").collectAsList()
                .forEach(r -> matching.add(r.getLong(0)));
        assertThat(matching.size()).isBetween(100, N - 100);

        evict(b -> true);
        assertThat(spark.sql("SELECT * FROM cs_cached").collectAsList()).hasSize(N);
        // warm, several partitions: each drive side alone meets the limit
        for (SparkDrive.PartitionRead p : limited(sql + 7, "cs_cached", matching)) {
            assertThat(p.rows()).as("warm partition %s", p.metrics()).hasSize(7);
            assertThat(p.metrics().get(DriveMetrics.CACHE_HOST_RECORDS))
                    .as("the host reads nothing once the drive met the limit").isZero();
        }

        // every other block: one partition, both sides hold matching records
        evict(b -> b % 2 == 1);
        SparkDrive.PartitionRead p = single(limited(sql + 7, "cs_cached_one", matching));
        assertThat(p.rows()).hasSize(7);
        assertThat(p.metrics().get(DriveMetrics.CACHE_DRIVE_RECORDS)).isPositive();
        assertThat(p.metrics().get(DriveMetrics.CACHE_HOST_RECORDS))
                .as("the drive met the limit: the host read nothing").isZero();
        assertThat(p.metrics().get(DriveMetrics.SCANNED)).as("the drive stopped at the limit")
                .isLessThan(p.metrics().get(DriveMetrics.CACHE_DRIVE_RECORDS) * REC / 10);

        // a limit the drive's share cannot meet: the host adds only what is left of it
        int most = matching.size() - 1;
        p = single(limited(sql + most, "cs_cached_one", matching));
        assertThat(p.rows()).as("both sides together").hasSize(most);
        assertThat(p.metrics().get(DriveMetrics.CACHE_DRIVE_RECORDS)).isPositive();
        assertThat(p.metrics().get(DriveMetrics.CACHE_HOST_RECORDS)).isPositive();
        assertThat(spark.sql("SELECT count(*) FROM (" + sql.replace("{t}", "cs_cached_one")
                + most + ")").first().getLong(0)).isEqualTo(most);
    }

    /** The partitions of {@code sql} over {@code view} as their readers return them, each
     *  row a distinct one of {@code matching} (timestamps are unique). */
    private List<SparkDrive.PartitionRead> limited(String sql, String view,
                                                   java.util.Set<Long> matching)
            throws Exception {
        var df = spark.sql(sql.replace("{t}", view));
        assertThat(df.queryExecution().executedPlan().toString()).as(sql)
                .contains("tasklet: filter").contains("PushedLimit");
        List<SparkDrive.PartitionRead> parts = SparkDrive.readPartitions(df);
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (SparkDrive.PartitionRead p : parts) {
            for (var r : p.rows()) {
                assertThat(matching).as(sql).contains(r.getLong(0));
                assertThat(seen.add(r.getLong(0))).as("row returned twice: %s", sql).isTrue();
            }
        }
        return parts;
    }

    private static SparkDrive.PartitionRead single(List<SparkDrive.PartitionRead> parts) {
        assertThat(parts).hasSize(1);
        return parts.get(0);
    }

    @Test
    void aFileChangedBehindTheCachesBackIsDoneOnTheHost() throws Exception {
        java.nio.file.Path changed = backing.resolve("data/changed.bin");
        Files.write(changed, SparkDrive.wc98(N, REC, 21));
        reader("1073741824").load("sscache://" + DRIVE + "/data/changed.bin")
                .createOrReplaceTempView("cs_changed");
        assertThat(spark.sql("SELECT * FROM cs_changed").collectAsList()).hasSize(N);

        byte[] now = SparkDrive.wc98(N, REC, 22);
        Files.write(changed, now);
        Files.setLastModifiedTime(changed, java.nio.file.attribute.FileTime.fromMillis(
                Files.getLastModifiedTime(changed).toMillis() + 10_000));
        spark.createDataFrame(SparkDrive.wc98Rows(now, REC), StructType.fromDDL(
                SparkDrive.WC98_DDL)).createOrReplaceTempView("cs_changed_ref");
        String sql = queries().toList().get(1);
        var df = spark.sql(sql.replace("{t}", "cs_changed"));
        List<String> got = new java.util.ArrayList<>();
        df.collectAsList().forEach(r -> got.add(r.toString()));
        got.sort(null);
        assertThat(got).isEqualTo(SparkDrive.sortedRows(spark, sql, "cs_changed_ref"));
        Map<String, Long> m = SmartSsdPushdownTest.metricsOfLastRun(df);
        assertThat(m.get(DriveMetrics.CACHE_DRIVE_RECORDS)).as("stale blocks: %s", m).isZero();
        assertThat(m.get(DriveMetrics.CACHE_HOST_RECORDS)).isEqualTo(N);
    }

    @Test
    void textLayoutsAreRefusedByName() {
        assertThatThrownBy(() -> spark.read().format("smartssd").options(drive)
                .option("sep", ",").option("layout", "id:i64, n:i32")
                .load(CACHED).collectAsList())
                .hasStackTraceContaining("sscache://")
                .hasStackTraceContaining("FIXED");
    }

    @Test
    void topNInputHasNoTiesAtTheCut() {
        // the top-N query's reference is exact only when the 9th and 10th sizes differ
        List<String> top = SparkDrive.sortedRows(spark,
                "SELECT size FROM {t} ORDER BY size DESC LIMIT 10", "cs_ref");
        assertThat(top).doesNotHaveDuplicates();
    }
}
