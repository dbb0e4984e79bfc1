package org.smartssd.benchmarks.parquet;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.FileSourceScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.execution.exchange.ShuffleExchangeExec;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.apache.spark.sql.types.StructType;
import org.smartssd.benchmarks.SuiteArgs;
import org.smartssd.benchmarks.kang.Csv;
import org.smartssd.benchmarks.spark.SparkSuite;
import org.smartssd.device.HostPowerProfile;
import org.smartssd.device.ModelCounters;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.SmartSsdFileSystem;
import org.smartssd.loganalyzer.LogAnalyzer;
import org.smartssd.loganalyzer.WorldCupRecord;
import org.smartssd.loganalyzer.model.HostCostModel;
import org.smartssd.loganalyzer.spark.SparkQueries;
import org.smartssd.scan.DeviceAccess;
import org.smartssd.scan.parquet.ParquetHostModel;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Parquet in the drive against Parquet on a plain drive (issue #33, §3): the synthetic
 * WorldCup98 trace as Spark-written snappy Parquet with an added string column of about 100 B,
 * one copy on {@code smartssd://} and a byte-identical copy on {@code file://}; Q1, Q2 and a
 * selective query (about 1 % of rows, five columns, the string among them), three ways in
 * one Spark session ({@code local[2]}):
 * <ol>
 *   <li>{@code connector}: {@code format("smartssd")}, {@code placement=auto}, filters and
 *       columns pushed into the drive's {@code parquet-scan};</li>
 *   <li>{@code spark-smartssd}: Spark's own Parquet reader over {@code smartssd://}, the drive
 *       a plain SSD, its link bytes counted;</li>
 *   <li>{@code spark-file}: Spark's own Parquet reader over the {@code file://} copy.</li>
 * </ol>
 * The fourth way, DuckDB over the {@code file://} copy, runs after this suite
 * ({@code parquet_duckdb.py}) from the queries it writes to {@code queries.tsv}, over the
 * copy it leaves in {@code --keep DIR}.
 *
 * <p>Modelled time, for the two ways over the drive: the drive's link (and, for the connector,
 * its ISP core) busy time from its counters, plus {@link ParquetHostModel} for the host's part.
 * Energy as the log analyzer's ({@code ExecEnergy}): the host idles over the modelled time and
 * is busy over its own CPU part; the drive's ISP, NAND-read and link energy from its counters.
 * Wall clock: the median of {@code --runs} runs (the three ways in turn within a run).
 * Each run starts with the {@code smartssd://} instance's tail cache dropped
 * ({@code SmartSsdFileSystem.dropTailCache}), so its figures are what that query costs on
 * its own, whatever ran before it; within a run, its tasks share the cache.
 *
 * <p>Then the sweep: {@code SELECT <k columns> WHERE clientID < X} over selectivities and
 * column counts, the connector against Spark's reader over the drive, modelled (one run).
 *
 * <p>Writes {@code parquet.csv}, {@code sweep.csv}, {@code data.csv}, {@code queries.tsv}.
 * Usage: {@code ParquetSuite --out DIR --keep DIR [--rows N] [--runs R] [--seed S]
 * [--sweep true|false] [--row-group-rows N] [--placement auto|device|host]}; exit code 7 when any answer differs.
 */
public final class ParquetSuite {
    static final String CONNECTOR = "connector";
    static final String SPARK_SMARTSSD = "spark-smartssd";
    static final String SPARK_FILE = "spark-file";
    /** Where the table goes on the drive. */
    static final String TABLE = "/pq/wc98";
    /**
     * The added string column, about 100 B: a request line's object and a per-request hex
     * digest (unique per request, so Parquet falls back from dictionary to PLAIN pages).
     */
    static final String URL_SQL = "concat('/english/images/obj', lpad(cast(objectID AS string), "
            + "7, '0'), '_', sha1(concat(cast(clientID AS string), ':', cast(timestamp AS string), "
            + "':', cast(size AS string))), '.gif?srv=', cast(server AS string), '&ts=', "
            + "cast(timestamp AS string))";
    /** The selective query: status 206 (code index 8, about 1.2 % of requests), five columns. */
    static final String SELECTIVE_SQL = "SELECT timestamp, clientID, objectID, size, url "
            + "FROM %s WHERE statusCode = 8";
    /**
     * Rows per row group the writer is held to (parquet-mr's {@code
     * parquet.block.row.count.limit}): {@code parquet-scan} holds a row group's decoded
     * column chunks in the ISP pool (SS_ISP_POOL_BYTES, 4 MiB, shared by the runs in the
     * drive at once, first fit; ParquetScanPlan.memoryBudget). The eleven columns take about
     * 800 B a row; at 2048 rows (1.6 MB a run for the selective query) two runs at once
     * still failed with TASKLET_BUDGET at times, as their regions left the pool in pieces
     * too small for the next. Spark's own default (128 MB row groups) asks for far more
     * than the pool: every query fails.
     */
    static final int ROW_GROUP_ROWS = 1024;
    static final double[] SWEEP_SELECTIVITY = {0.001, 0.01, 0.1, 0.5, 1.0};
    static final List<List<String>> SWEEP_COLUMNS = List.of(
            List.of("clientID"),
            List.of("clientID", "timestamp", "objectID"),
            List.of("clientID", "timestamp", "objectID", "size", "url"),
            List.of("clientID", "timestamp", "objectID", "size", "method", "status", "type",
                    "server", "region", "statusCode", "url"));

    private ParquetSuite() {
    }

    /** A query of the main table: its name, SQL ({@code %s} the table) and aggregation price. */
    record Query(String name, String sql, double aggregateNsPerRow) {
    }

    static final List<Query> QUERIES = List.of(
            new Query("Q1", SparkQueries.Q1_SQL, HostCostModel.Q1_NS_PER_RECORD),
            new Query("Q2", SparkQueries.Q2_SQL, HostCostModel.Q2_NS_PER_RECORD),
            new Query("selective", SELECTIVE_SQL, 0));

    /** What a query answered: its rows, and a digest of them in a canonical form. */
    record Answer(long rows, String digest) {
    }

    /** One measured run of one way. */
    record Run(String way, long wallNs, Answer answer, long linkNs, long ispNs, long linkBytes,
               double deviceJ, long scanRows, long partialGroups, StructType readSchema,
               String scan, long ispInstructions, long ispDramAccesses, long pageReads,
               long connectorHostCpuNs) {
    }

    public static void main(String[] args) throws Exception {
        Path out = null;
        Path keep = null;
        long rows = 200_000;
        int runs = 5;
        long seed = 1998;
        boolean sweep = true;
        int rowGroupRows = ROW_GROUP_ROWS;
        String place = "auto";
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String v = args[i + 1];
            switch (args[i]) {
                case "--out" -> out = Path.of(v);
                case "--keep" -> keep = Path.of(v);
                case "--rows" -> rows = Long.parseLong(v);
                case "--runs" -> runs = Integer.parseInt(v);
                case "--seed" -> seed = Long.parseLong(v);
                case "--sweep" -> sweep = Boolean.parseBoolean(v);
                case "--row-group-rows" -> rowGroupRows = Integer.parseInt(v);
                case "--placement" -> place = v;
                default -> throw new IllegalArgumentException("unknown option '" + args[i]
                        + "' (use --out DIR --keep DIR --rows N --runs R --seed S --sweep B "
                        + "--row-group-rows N --placement auto|device|host)");
            }
        }
        if (out == null || keep == null) {
            throw new IllegalArgumentException("--out DIR and --keep DIR are required");
        }
        if (!List.of("auto", "device", "host").contains(place)) {
            throw new IllegalArgumentException("--placement '" + place + "' is not auto, device "
                    + "or host");
        }
        placement = place;
        if (rows < 1 || runs < 1 || rowGroupRows < 1) {
            throw new IllegalArgumentException("--rows, --runs and --row-group-rows must be at "
                    + "least 1");
        }
        Files.createDirectories(out);
        Path work = Files.createTempDirectory("parquet-suite-");
        boolean same;
        try {
            same = run(out, keep, work, rows, runs, seed, sweep, rowGroupRows);
        } finally {
            SuiteArgs.deleteTree(work);
        }
        System.out.println("answers " + (same ? "identical across the three Spark ways"
                : "DIFFER (see parquet.csv, sweep.csv)"));
        System.exit(same ? 0 : 7);
    }

    static boolean run(Path out, Path keep, Path work, long rows, int runs, long seed,
                       boolean sweep, int rowGroupRows) throws Exception {
        Path trace = work.resolve("wc_synthetic.bin");
        SparkSuite.writeTrace(trace, rows, seed);
        HostPowerProfile power = HostPowerProfile.fromSystemProperties();
        boolean identical = true;
        try (LogAnalyzer la = LogAnalyzer.embedded(work.resolve("drive"),
                LogAnalyzer.capacityFor(rows * 200L), null)) {
            SparkSession spark = la.spark().session();
            System.err.println("== " + rows + " entries: onto the drive, then Spark writes them "
                    + "as snappy Parquet to smartssd://");
            LogAnalyzer.DriveFile f = la.load(trace, WorldCupRecord.BYTES, WorldCupRecord.BYTES,
                    null);
            org.apache.hadoop.fs.Path table = new org.apache.hadoop.fs.Path(f.path().toUri()
                    .resolve(TABLE));
            spark.read().format("smartssd").option("layout", "wc98").load(f.path().toString())
                    .selectExpr("*", URL_SQL + " AS url").write().mode("overwrite")
                    .option("compression", "snappy")
                    .option("parquet.block.row.count.limit", String.valueOf(rowGroupRows))
                    .parquet(table.toString());
            la.remove(f);
            // the instance Spark's scans of the table read through, by Hadoop's FileSystem cache
            SmartSsdFileSystem drive = DeviceAccess.fileSystem(table,
                    spark.sparkContext().hadoopConfiguration());
            Configuration conf = la.conf();
            copyToLocal(table, keep, conf);
            double urlBytes = describe(out.resolve("data.csv"), keep, conf);
            Map<String, ParquetHostModel.Kind> kinds = kinds(keep, conf);
            String onDrive = table.toString();
            String onFile = keep.toUri().toString();

            try (PrintWriter q = new PrintWriter(Files.newBufferedWriter(
                    out.resolve("queries.tsv"), StandardCharsets.UTF_8))) {
                for (Query x : QUERIES) {
                    q.println(x.name() + "\t" + x.sql());
                }
            }
            try (Csv csv = new Csv(out.resolve("parquet.csv"), "query", "way", "rows",
                    "wall_s", "wall_min_s", "wall_max_s", "modelled_s", "link_s", "isp_s",
                    "host_cpu_s", "link_bytes", "host_j", "device_j", "scan_rows",
                    "partial_groups", "answer_rows", "answer", "isp_instructions",
                    "isp_dram_accesses", "page_reads", "scan")) {
                for (Query x : QUERIES) {
                    List<List<Run>> all = List.of(new ArrayList<>(), new ArrayList<>(),
                            new ArrayList<>());
                    for (int k = 0; k < runs; k++) {
                        all.get(0).add(measure(spark, drive, CONNECTOR, connector(spark,
                                onDrive), x.sql()));
                        all.get(1).add(measure(spark, drive, SPARK_SMARTSSD,
                                spark.read().parquet(onDrive), x.sql()));
                        all.get(2).add(measure(spark, drive, SPARK_FILE,
                                spark.read().parquet(onFile), x.sql()));
                    }
                    Answer ref = all.get(0).get(0).answer();
                    StringBuilder line = new StringBuilder(x.name() + ":");
                    for (List<Run> l : all) {
                        for (Run r : l) {
                            if (!r.answer().equals(ref)) {
                                identical = false;
                                System.err.println("ANSWER DIFFERS: " + x.name() + " " + r.way()
                                        + " " + r.answer() + " against " + ref);
                            }
                        }
                        List<Run> sorted = new ArrayList<>(l);
                        sorted.sort(Comparator.comparingLong(Run::wallNs));
                        Run m = sorted.get(sorted.size() / 2);
                        row(csv, x, m, sorted, rows, urlBytes, kinds, power);
                        line.append(String.format(Locale.ROOT, "  %s %.2f s", m.way(),
                                m.wallNs() / 1e9));
                    }
                    System.err.println(line);
                }
            }
            if (sweep) {
                identical &= sweep(out.resolve("sweep.csv"), spark, drive, onDrive, onFile, rows,
                        urlBytes, kinds, power);
            }
        }
        return identical;
    }

    /** The connector's placement: auto, unless a run asks for the drive's or the host's
     *  side alone ({@code --placement}). */
    private static String placement = "auto";

    private static Dataset<Row> connector(SparkSession spark, String path) {
        return spark.read().format("smartssd").option("placement", placement).load(path);
    }

    /** One CSV row: the median run's figures, modelled for the ways over the drive. */
    private static void row(Csv csv, Query x, Run m, List<Run> sorted, long rows,
                            double urlBytes, Map<String, ParquetHostModel.Kind> kinds,
                            HostPowerProfile power) {
        Modelled md = model(m, x.aggregateNsPerRow(), urlBytes, kinds, power);
        csv.row(x.name(), m.way(), rows, m.wallNs() / 1e9, sorted.get(0).wallNs() / 1e9,
                sorted.get(sorted.size() - 1).wallNs() / 1e9,
                md == null ? "" : md.ns() / 1e9, md == null ? "" : m.linkNs() / 1e9,
                md == null ? "" : m.ispNs() / 1e9, md == null ? "" : md.hostNs() / 1e9,
                m.linkBytes(), md == null ? "" : md.hostJ(), md == null ? "" : m.deviceJ(),
                m.scanRows(), m.partialGroups(), m.answer().rows(), m.answer().digest(),
                m.ispInstructions(), m.ispDramAccesses(), m.pageReads(),
                m.scan().replace(',', ';'));
    }

    /** Modelled time (ns), its host part, and the host's energy. */
    record Modelled(double ns, double hostNs, double hostJ) {
    }

    /**
     * The way's modelled figures; null for {@code spark-file}, which has no drive. Spark's
     * reader decodes every row its scan read, of the columns it read; the connector reports
     * its own host CPU by the same model ({@code modelledHostCpuNs}: the rows the drive
     * returned, or the row groups its host side read and the pushed work over them). Both
     * then pay the query's aggregation over the rows their scans gave, and the shuffle.
     */
    static Modelled model(Run r, double aggregateNsPerRow, double urlBytes,
                          Map<String, ParquetHostModel.Kind> kinds, HostPowerProfile power) {
        if (r.way().equals(SPARK_FILE)) {
            return null;
        }
        double decode;
        if (r.way().equals(CONNECTOR)) {
            decode = r.connectorHostCpuNs();
        } else {
            List<ParquetHostModel.Kind> read = new ArrayList<>();
            for (String n : r.readSchema().fieldNames()) {
                read.add(kinds.get(n));
            }
            decode = ParquetHostModel.decodeNs(read, r.scanRows(), urlBytes);
        }
        double host = decode + ParquetHostModel.aggregateNs(aggregateNsPerRow,
                        aggregateNsPerRow > 0 ? r.scanRows() : 0, r.partialGroups());
        double ns = r.linkNs() + r.ispNs() + host;
        double hostJ = power.idleWatts() * ns / 1e9 + power.busyWatts() * host / 1e9;
        return new Modelled(ns, host, hostJ);
    }

    /**
     * Runs {@code sql} over {@code table}, bracketed by the drive's counters, from a cold tail
     * cache: in this one JVM an earlier way or query would otherwise have left the footers in
     * {@code drive}'s, and a run's figures would depend on what ran before it.
     */
    static Run measure(SparkSession spark, SmartSsdFileSystem drive, String way,
                       Dataset<Row> table, String sql) throws IOException {
        String view = "t_" + UUID.randomUUID().toString().replace("-", "");
        table.createOrReplaceTempView(view);
        try {
            Dataset<Row> df = spark.sql(String.format(sql, view));
            drive.dropTailCache();
            SmartSsdDevice dev = drive.device();
            ModelCounters a = dev.modelCounters().orElseThrow(
                    () -> new IOException("the drive has no model counters: not an emulated drive"));
            long t0 = System.nanoTime();
            List<Row> rows = df.collectAsList();
            long wall = System.nanoTime() - t0;
            ModelCounters b = dev.modelCounters().orElseThrow();
            Map<String, Long> m = new TreeMap<>();
            Object[] scan = {null, ""};
            walk(df.queryExecution().executedPlan(), m, scan);
            if (scan[0] == null) {
                throw new IllegalStateException(way + ": no scan in the plan of " + sql);
            }
            double deviceJ = ((b.energyIspNj() - a.energyIspNj())
                    + (b.energyNandReadNj() - a.energyNandReadNj())
                    + (b.energyLinkNj() - a.energyLinkNj())) / 1e9;
            return new Run(way, wall, answer(rows), b.linkBusyNs() - a.linkBusyNs(),
                    way.equals(CONNECTOR) ? b.ispBusyNs() - a.ispBusyNs() : 0,
                    (b.linkBytesIn() + b.linkBytesOut()) - (a.linkBytesIn() + a.linkBytesOut()),
                    deviceJ, m.getOrDefault("numOutputRows", 0L),
                    m.getOrDefault("shuffleRecordsWritten", 0L), (StructType) scan[0],
                    (String) scan[1], b.ispInstructions() - a.ispInstructions(),
                    b.ispDramAccesses() - a.ispDramAccesses(), b.pageReads() - a.pageReads(),
                    m.getOrDefault("modelledHostCpuNs", 0L));
        } finally {
            spark.catalog().dropTempView(view);
        }
    }

    /** The scan's schema, description and metrics, and the shuffles' records written. */
    private static void walk(SparkPlan p, Map<String, Long> into, Object[] scan) {
        StructType read = null;
        if (p instanceof BatchScanExec b) {
            read = b.scan().readSchema();
            scan[1] = b.scan().description();
        } else if (p instanceof FileSourceScanExec f) {
            read = f.requiredSchema();
            scan[1] = f.nodeName() + " " + f.requiredSchema().simpleString();
        }
        if (read != null) {
            if (scan[0] != null) {
                throw new IllegalStateException("two scans in one plan: " + p);
            }
            scan[0] = read;
            SQLMetric n = CollectionConverters.asJava(p.metrics()).get("numOutputRows");
            into.merge("numOutputRows", n == null ? 0 : n.value(), Long::sum);
            SQLMetric c = CollectionConverters.asJava(p.metrics()).get("modelledHostCpuNs");
            into.merge("modelledHostCpuNs", c == null ? 0 : c.value(), Long::sum);
        } else if (p instanceof ShuffleExchangeExec) {
            SQLMetric w = CollectionConverters.asJava(p.metrics()).get("shuffleRecordsWritten");
            if (w != null) {
                into.merge("shuffleRecordsWritten", w.value(), Long::sum);
            }
        }
        for (SparkPlan c : CollectionConverters.asJava(p.children())) {
            walk(c, into, scan);
        }
    }

    /**
     * Rows in a canonical form that DuckDB's side ({@code parquet_duckdb.py}) writes too: each
     * row its values' decimal or string forms joined by tabs ({@code \N} for NULL), the lines
     * sorted, each ended by a newline, SHA-256 of the UTF-8 bytes, first 16 hex digits.
     */
    static Answer answer(List<Row> rows) {
        List<String> lines = new ArrayList<>(rows.size());
        for (Row r : rows) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < r.length(); i++) {
                if (i > 0) {
                    b.append('\t');
                }
                b.append(r.isNullAt(i) ? "\\N" : String.valueOf(r.get(i)));
            }
            lines.add(b.toString());
        }
        lines.sort(Comparator.naturalOrder());
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (String l : lines) {
                d.update((l + "\n").getBytes(StandardCharsets.UTF_8));
            }
            return new Answer(rows.size(), HexFormat.of().formatHex(d.digest()).substring(0, 16));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Copies the table's files off the drive and checks every byte against the drive's. */
    static void copyToLocal(org.apache.hadoop.fs.Path table, Path keep, Configuration conf)
            throws IOException {
        SuiteArgs.deleteTree(keep);
        Files.createDirectories(keep);
        FileSystem drive = table.getFileSystem(conf);
        FileSystem local = FileSystem.getLocal(conf).getRawFileSystem();
        for (FileStatus s : drive.listStatus(table)) {
            org.apache.hadoop.fs.Path dst = new org.apache.hadoop.fs.Path(
                    keep.resolve(s.getPath().getName()).toUri());
            FileUtil.copy(drive, s.getPath(), local, dst, false, conf);
            String a = sha256(drive, s.getPath());
            String b = sha256(local, dst);
            if (!a.equals(b)) {
                throw new IOException("the file:// copy of " + s.getPath() + " differs from "
                        + "the drive's (SHA-256 " + b + " against " + a + ")");
            }
        }
    }

    private static String sha256(FileSystem fs, org.apache.hadoop.fs.Path p) throws IOException {
        try (InputStream in = fs.open(p)) {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 20];
            for (int n; (n = in.read(buf)) > 0; ) {
                d.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Writes the copy's files, row groups and per-column sizes (compressed and not) from its
     * footers; returns the string column's mean length in bytes.
     */
    static double describe(Path csvFile, Path dir, Configuration conf) throws IOException {
        Map<String, long[]> cols = new TreeMap<>();
        long files = 0;
        long groups = 0;
        long rows = 0;
        long total = 0;
        try (var s = Files.list(dir)) {
            for (Path p : s.filter(x -> x.getFileName().toString().endsWith(".parquet"))
                    .sorted().toList()) {
                files++;
                total += Files.size(p);
                try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(
                        new org.apache.hadoop.fs.Path(p.toUri()), conf))) {
                    for (BlockMetaData b : r.getFooter().getBlocks()) {
                        groups++;
                        rows += b.getRowCount();
                        for (ColumnChunkMetaData c : b.getColumns()) {
                            long[] v = cols.computeIfAbsent(c.getPath().toDotString(),
                                    k -> new long[3]);
                            v[0] += c.getTotalSize();
                            v[1] += c.getTotalUncompressedSize();
                            v[2] += c.getValueCount();
                        }
                    }
                }
            }
        }
        try (Csv csv = new Csv(csvFile, "column", "compressed_bytes", "uncompressed_bytes",
                "values", "files", "row_groups", "rows", "file_bytes")) {
            for (Map.Entry<String, long[]> e : cols.entrySet()) {
                long[] v = e.getValue();
                csv.row(e.getKey(), v[0], v[1], v[2], files, groups, rows, total);
            }
        }
        long[] url = cols.get("url");
        // PLAIN BYTE_ARRAY: a 4-byte length before each value
        double mean = url == null || url[2] == 0 ? 0 : (double) url[1] / url[2] - 4;
        System.err.printf(Locale.ROOT, "== table: %d files, %d row groups, %d rows, %.1f MB; "
                + "url %.1f B a value (uncompressed, PLAIN)%n", files, groups, rows, total / 1e6,
                mean);
        return mean;
    }

    /** How {@link ParquetHostModel} prices each column of the copy's first file. */
    static Map<String, ParquetHostModel.Kind> kinds(Path dir, Configuration conf)
            throws IOException {
        Map<String, ParquetHostModel.Kind> kinds = new TreeMap<>();
        try (var s = Files.list(dir)) {
            Path first = s.filter(x -> x.getFileName().toString().endsWith(".parquet"))
                    .sorted().findFirst().orElseThrow(() -> new IOException("no Parquet file "
                            + "in " + dir));
            try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(
                    new org.apache.hadoop.fs.Path(first.toUri()), conf))) {
                for (var c : r.getFooter().getFileMetaData().getSchema().getColumns()) {
                    kinds.put(String.join(".", c.getPath()),
                            ParquetHostModel.kind(c.getPrimitiveType()));
                }
            }
        }
        return kinds;
    }

    /** The selectivity x columns sweep, modelled; false when an answer differs. */
    static boolean sweep(Path csvFile, SparkSession spark, SmartSsdFileSystem drive,
                         String onDrive, String onFile, long rows, double urlBytes,
                         Map<String, ParquetHostModel.Kind> kinds, HostPowerProfile power)
            throws IOException {
        StringBuilder q = new StringBuilder("SELECT percentile(clientID, array(");
        for (int i = 0; i < SWEEP_SELECTIVITY.length; i++) {
            q.append(i > 0 ? ", " : "").append(SWEEP_SELECTIVITY[i]);
        }
        spark.read().parquet(onFile).createOrReplaceTempView("sweep_quantiles");
        List<?> qs = CollectionConverters.asJava(spark.sql(q.append(")) FROM sweep_quantiles")
                .toString()).collectAsList().get(0).getSeq(0));
        boolean identical = true;
        try (Csv csv = new Csv(csvFile, "selectivity", "columns", "way", "answer_rows",
                "modelled_s", "link_s", "isp_s", "host_cpu_s", "link_only_s", "link_bytes",
                "host_j", "device_j", "wall_s", "answer", "identical")) {
            for (int i = 0; i < SWEEP_SELECTIVITY.length; i++) {
                // clientID <= the quantile: every row at 100 %
                long bound = (long) Math.floor(((Number) qs.get(i)).doubleValue());
                for (List<String> cols : SWEEP_COLUMNS) {
                    String sql = "SELECT " + String.join(", ", cols) + " FROM %s WHERE clientID <= "
                            + bound;
                    Run c = measure(spark, drive, CONNECTOR, connector(spark, onDrive), sql);
                    Run p = measure(spark, drive, SPARK_SMARTSSD, spark.read().parquet(onDrive),
                            sql);
                    boolean same = c.answer().equals(p.answer());
                    identical &= same;
                    for (Run r : List.of(c, p)) {
                        Modelled md = model(r, 0, urlBytes, kinds, power);
                        csv.row(SWEEP_SELECTIVITY[i], cols.size(), r.way(), r.answer().rows(),
                                md.ns() / 1e9, r.linkNs() / 1e9, r.ispNs() / 1e9,
                                md.hostNs() / 1e9, r.linkNs() / 1e9, r.linkBytes(), md.hostJ(),
                                r.deviceJ(), r.wallNs() / 1e9, r.answer().digest(), same);
                    }
                    System.err.printf(Locale.ROOT, "sweep %5.1f %% x %2d columns: %d rows, "
                            + "modelled connector %.4f s, spark-smartssd %.4f s%s%n",
                            100.0 * c.answer().rows() / rows, cols.size(), c.answer().rows(),
                            model(c, 0, urlBytes, kinds, power).ns() / 1e9,
                            model(p, 0, urlBytes, kinds, power).ns() / 1e9,
                            same ? "" : "  ANSWERS DIFFER");
                }
            }
        }
        return identical;
    }
}
