package org.smartssd.spark;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.smartssd.device.SmartSsdDevice;
import scala.jdk.javaapi.CollectionConverters;

/**
 * One emulated drive ({@code emu:} image in a temp folder) and one Spark {@code local[2]}
 * session for the whole suite, the data written to the drive, and an independent decoder of
 * the same bytes (plain big-endian reads, not the connector's) for reference answers.
 */
final class SparkDrive {
    static final String DRIVE = "t0";
    private static SparkDrive instance;

    final Path dir;
    final SparkSession spark;

    private SparkDrive() throws IOException {
        dir = Files.createTempDirectory("smartssd-spark");
        Path image = dir.resolve("t0.img");
        SmartSsdDevice.formatEmulated(image, null, 256L << 20, 0);
        spark = SparkSession.builder().master("local[2]").appName("smartssd-spark-test")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.hadoop.smartssd.device." + DRIVE + ".uri", "emu:" + image)
                .getOrCreate();
        Runtime.getRuntime().addShutdownHook(new Thread(this::cleanUp));
    }

    static synchronized SparkDrive get() throws IOException {
        if (instance == null) {
            instance = new SparkDrive();
        }
        return instance;
    }

    private void cleanUp() {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp folder left behind is harmless
        }
    }

    /** The rows of {@code sql} over table {@code t} (the text's {t}), as strings, sorted. */
    static List<String> sortedRows(SparkSession spark, String sql, String t) {
        List<String> out = new ArrayList<>();
        for (Row r : spark.sql(sql.replace("{t}", t)).collectAsList()) {
            out.add(r.toString());
        }
        out.sort(null);
        return out;
    }

    /** What one partition's reader handed Spark: its rows and its task metrics. */
    record PartitionRead(List<InternalRow> rows, Map<String, Long> metrics) {
    }

    /**
     * Every partition of {@code df}'s smartssd scan read here, on the driver, through the
     * connector's own reader factory: what each partition gives Spark before any operator
     * above the scan (a LIMIT above the scan stops pulling rows, so neither the answer nor the
     * scan's row count shows a partition that returns too many).
     */
    static List<PartitionRead> readPartitions(Dataset<Row> df) throws IOException {
        BatchScanExec scan = null;
        for (SparkPlan leaf : CollectionConverters.asJava(
                df.queryExecution().executedPlan().collectLeaves())) {
            if (leaf instanceof BatchScanExec b && b.scan() instanceof SmartSsdScan) {
                scan = b;
            }
        }
        if (scan == null) {
            throw new AssertionError("no smartssd scan in " + df.queryExecution().executedPlan());
        }
        Batch batch = scan.scan().toBatch();
        PartitionReaderFactory factory = batch.createReaderFactory();
        List<PartitionRead> out = new ArrayList<>();
        for (InputPartition p : batch.planInputPartitions()) {
            List<InternalRow> rows = new ArrayList<>();
            Map<String, Long> metrics = new HashMap<>();
            try (PartitionReader<InternalRow> r = factory.createReader(p)) {
                while (r.next()) {
                    rows.add(r.get().copy());
                }
                for (CustomTaskMetric m : r.currentMetricsValues()) {
                    metrics.put(m.name(), m.value());
                }
            }
            out.add(new PartitionRead(rows, metrics));
        }
        return out;
    }

    FileSystem fs() throws IOException {
        return FileSystem.get(URI.create("smartssd://" + DRIVE + "/"),
                spark.sparkContext().hadoopConfiguration());
    }

    String put(String path, byte[] bytes) throws IOException {
        try (OutputStream out = fs().create(new org.apache.hadoop.fs.Path(path), true)) {
            out.write(bytes);
        }
        return "smartssd://" + DRIVE + path;
    }

    /**
     * {@code n} WorldCup98 records of {@code size} bytes: timestamps unique and increasing,
     * sizes across the whole unsigned 32-bit range, padding random.
     */
    static byte[] wc98(int n, int size, long seed) {
        Random r = new Random(seed);
        ByteBuffer b = ByteBuffer.allocate(n * size);
        byte[] pad = new byte[size - 20];
        for (int i = 0; i < n; i++) {
            b.putInt(893_000_000 + 3 * i);
            b.putInt(r.nextInt(5000));
            b.putInt(r.nextInt(100_000));
            b.putInt(r.nextInt(8) == 0 ? r.nextInt() : r.nextInt(20_000));
            b.put((byte) r.nextInt(4));
            b.put((byte) r.nextInt(256));
            b.put((byte) r.nextInt(13));
            b.put((byte) r.nextInt(256));
            r.nextBytes(pad);
            b.put(pad);
        }
        return b.array();
    }

    /** The reference rows of wc98 bytes, decoded here independently of the connector. */
    static List<Row> wc98Rows(byte[] data, int size) {
        List<Row> rows = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(data);
        for (int off = 0; off + size <= data.length; off += size) {
            int status = data[off + 17] & 0xff;
            int server = data[off + 19] & 0xff;
            rows.add(RowFactory.create(
                    Integer.toUnsignedLong(b.getInt(off)),
                    Integer.toUnsignedLong(b.getInt(off + 4)),
                    Integer.toUnsignedLong(b.getInt(off + 8)),
                    Integer.toUnsignedLong(b.getInt(off + 12)),
                    (short) (data[off + 16] & 0xff),
                    (short) status,
                    (short) (data[off + 18] & 0xff),
                    (short) server,
                    (byte) (server >> 5),
                    (byte) (status & 63)));
        }
        return rows;
    }

    static final String WC98_DDL = "timestamp BIGINT NOT NULL, clientID BIGINT NOT NULL, "
            + "objectID BIGINT NOT NULL, size BIGINT NOT NULL, method SMALLINT NOT NULL, "
            + "status SMALLINT NOT NULL, type SMALLINT NOT NULL, server SMALLINT NOT NULL, "
            + "region TINYINT NOT NULL, statusCode TINYINT NOT NULL";

    /** Layout of the mixed-type table: strings, signed and 64-bit fields, a bit field. */
    static final String MIXED_LAYOUT = "id:u32@0, name:bytes(6)@4, score:i32@10, big:u64@14, "
            + "wide:i64@22, flags:u16@30>>4&15";
    static final int MIXED_RECORD = 32;
    static final String MIXED_DDL = "id BIGINT NOT NULL, name STRING NOT NULL, score INT NOT "
            + "NULL, big DECIMAL(20,0) NOT NULL, wide BIGINT NOT NULL, flags TINYINT NOT NULL";

    static final String[] NAMES = {"alpha\0", "beta\0\0", "gamma\0", "alp\0\0\0", "zeta!!",
        "betamx"};

    static byte[] mixed(int n, long seed) {
        Random r = new Random(seed);
        ByteBuffer b = ByteBuffer.allocate(n * MIXED_RECORD);
        for (int i = 0; i < n; i++) {
            b.putInt(i);
            b.put(NAMES[r.nextInt(NAMES.length)].getBytes(java.nio.charset.StandardCharsets
                    .ISO_8859_1));
            b.putInt(r.nextInt(2001) - 1000);
            b.putLong(r.nextBoolean() ? r.nextLong() : r.nextInt(1000));
            b.putLong(r.nextInt(3) == 0 ? r.nextLong() : r.nextInt(2000) - 1000);
            b.putShort((short) r.nextInt(1 << 16));
        }
        return b.array();
    }

    static List<Row> mixedRows(byte[] data) {
        List<Row> rows = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(data);
        for (int off = 0; off + MIXED_RECORD <= data.length; off += MIXED_RECORD) {
            rows.add(RowFactory.create(
                    Integer.toUnsignedLong(b.getInt(off)),
                    // a bytes field's value: its bytes without the trailing NUL padding
                    new String(data, off + 4, 6, java.nio.charset.StandardCharsets.ISO_8859_1)
                            .replaceFirst("\\x00+$", ""),
                    b.getInt(off + 10),
                    new java.math.BigDecimal(Long.toUnsignedString(b.getLong(off + 14))),
                    b.getLong(off + 22),
                    (byte) ((Short.toUnsignedInt(b.getShort(off + 30)) >> 4) & 15)));
        }
        return rows;
    }
}
