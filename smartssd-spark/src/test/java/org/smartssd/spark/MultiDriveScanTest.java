package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.smartssd.device.SmartSsdDevice;

/**
 * One node, three drives: a table over a file on each ({@code load(p0, p1, p2)}, each drive
 * its own {@code smartssd.device.NAME.uri}) answers every query as the same records on one
 * drive do, and as Spark over rows the test decodes itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MultiDriveScanTest {
    static final int DRIVES = 3;
    static final int PER_DRIVE = 15_000;
    static final String SPLIT = "65536";

    SparkSession spark;
    final Map<String, String> drives = new HashMap<>();
    final List<String> paths = new ArrayList<>();

    @BeforeAll
    void load() throws Exception {
        SparkDrive d = SparkDrive.get();
        spark = d.spark;
        byte[] all = SparkDrive.wc98(DRIVES * PER_DRIVE, 20, 77);
        String whole = d.put("/logs/multi-all", all);
        Configuration conf = new Configuration(spark.sparkContext().hadoopConfiguration());
        Path dir = Files.createDirectories(d.dir.resolve("multi"));
        for (int i = 0; i < DRIVES; i++) {
            String name = "md" + i;
            Path image = dir.resolve(name + ".img");
            SmartSsdDevice.formatEmulated(image, null, 64L << 20, 0);
            drives.put("smartssd.device." + name + ".uri", "emu:" + image);
            drives.put("smartssd.device." + name + ".host", "node-" + i);
            conf.set("smartssd.device." + name + ".uri", "emu:" + image);
            conf.set("smartssd.device." + name + ".host", "node-" + i);
            String p = "smartssd://" + name + "/logs/part" + i;
            FileSystem fs = FileSystem.get(URI.create(p), conf);
            try (OutputStream out = fs.create(new org.apache.hadoop.fs.Path(p))) {
                out.write(Arrays.copyOfRange(all, i * PER_DRIVE * 20, (i + 1) * PER_DRIVE * 20));
            }
            paths.add(p);
        }
        reader().load(paths.toArray(new String[0])).createOrReplaceTempView("md");
        reader().load(whole).createOrReplaceTempView("md_one");
        spark.createDataFrame(SparkDrive.wc98Rows(all, 20), StructType.fromDDL(
                SparkDrive.WC98_DDL)).createOrReplaceTempView("md_ref");
    }

    private DataFrameReader reader() {
        return spark.read().format("smartssd").options(drives).option("layout", "wc98")
                .option("mapreduce.input.fileinputformat.split.maxsize", SPLIT);
    }

    private List<String> rows(String sql, String t) {
        return SparkDrive.sortedRows(spark, sql, t);
    }

    static Stream<String> queries() {
        return Stream.of(
                "SELECT region, count(*) FROM {t} GROUP BY region",
                "SELECT type, sum(size), min(size), max(size) FROM {t} GROUP BY type",
                "SELECT count(*) FROM {t} WHERE size > 10000",
                "SELECT timestamp, size FROM {t} WHERE method = 1 AND clientID < 50",
                "SELECT timestamp, size FROM {t} ORDER BY size DESC LIMIT 9",
                "SELECT count(*), sum(clientID) FROM {t}");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void threeDrivesAnswerAsOneDriveAndAsSpark(String sql) {
        List<String> expected = rows(sql, "md_ref");
        assertThat(rows(sql, "md")).as("three drives: %s", sql).isEqualTo(expected);
        assertThat(rows(sql, "md_one")).as("one drive: %s", sql).isEqualTo(expected);
    }

    @Test
    void partitionsTakeTheDrivesInTurnEachOnItsDrivesHost() {
        Map<String, String> options = new HashMap<>(drives);
        options.put("layout", "wc98");
        options.put("mapreduce.input.fileinputformat.split.maxsize", SPLIT);
        options.put("paths", "[\"" + String.join("\", \"", paths) + "\"]");
        SmartSsdTable table = (SmartSsdTable) new SmartSsdDataSource().getTable(null,
                new org.apache.spark.sql.connector.expressions.Transform[0], options);
        InputPartition[] parts = table.newScanBuilder(new CaseInsensitiveStringMap(options))
                .build().toBatch().planInputPartitions();
        // 300 000 bytes per drive in 64 KiB partitions: 4 whole and a last of 37 856 bytes
        assertThat(parts).hasSize(DRIVES * 5);
        for (int i = 0; i < parts.length; i++) {
            SmartSsdPartition p = (SmartSsdPartition) parts[i];
            assertThat(p.index()).isEqualTo(i);
            assertThat(p.path()).isEqualTo(paths.get(i % DRIVES));
            assertThat(p.preferredLocations()).containsExactly("node-" + (i % DRIVES));
        }
    }

    @Test
    void filesWithDifferentLayoutsAreRefusedNamingBoth() throws Exception {
        SparkDrive d = SparkDrive.get();
        String odd = d.put("/logs/multi-odd", SparkDrive.wc98(10, 32, 5));
        String written = "smartssd://" + SparkDrive.DRIVE + "/logs/multi-stored";
        spark.read().format("smartssd").option("layout", "wc98").load(odd)
                .write().format("smartssd").option("layout", "wc98").save(written);
        String mixed = d.put("/logs/multi-mixed", SparkDrive.mixed(10, 6));
        spark.read().format("smartssd").option("layout", SparkDrive.MIXED_LAYOUT)
                .option("recordSize", "32").load(mixed).write().format("smartssd")
                .option("layout", SparkDrive.MIXED_LAYOUT).save(mixed + "-stored");
        assertThatThrownBy(() -> spark.read().format("smartssd")
                .load(written, mixed + "-stored").schema())
                .hasMessageContaining("share a layout").hasMessageContaining(written)
                .hasMessageContaining(mixed + "-stored");
    }
}
