package org.smartssd.loganalyzer.spark;

import java.io.Closeable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.execution.exchange.ShuffleExchangeExec;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.smartssd.loganalyzer.Answer;
import org.smartssd.loganalyzer.Query;
import org.smartssd.loganalyzer.Region;
import org.smartssd.loganalyzer.TopTypes;
import org.smartssd.loganalyzer.TypeCount;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Q1 and Q2 as Spark SQL, on a Spark {@code local[N]} session in this JVM, over a trace on
 * the drive read through the {@code smartssd} connector (its {@code wc98} layout), with
 * every pushdown on or off, or over a Parquet copy of the same records. The answer is
 * converted to the log analyzer's {@link Answer}; the scan's figures come from the executed
 * plan's SQL metrics (the connector's CustomMetrics and Spark's own row counts).
 */
public final class SparkQueries implements Closeable {
    /** Q1: accesses per region. */
    public static final String Q1_SQL = "SELECT region, count(*) AS c FROM %s GROUP BY region";
    /** Q2: the top 5 file types per region, ties to the smaller type code (as TopTypes). */
    public static final String Q2_SQL = "SELECT region, type, c FROM (SELECT region, type, "
            + "count(*) AS c, row_number() OVER (PARTITION BY region ORDER BY count(*) DESC, "
            + "type) AS rn FROM %s GROUP BY region, type) WHERE rn <= " + TopTypes.N;
    /** The connector's switches, all set for a read without pushdown. */
    static final List<String> PUSHDOWN_OPTIONS = List.of("pushDownPredicate",
            "pushDownAggregate", "pushDownLimit", "pushDownTopN");

    /**
     * What a query over the drive (or Parquet) answered and what its scan counted.
     *
     * @param scanRows      rows the scan gave Spark (records, or the drive's groups)
     * @param partialGroups rows Spark's partial aggregation shuffled (0 when none ran)
     * @param linkBytes     the connector's linkBytes metric (0 for Parquet)
     * @param driveScanned  the connector's driveBytesScanned metric
     * @param deviceTimeNs  the connector's deviceTimeNs metric (summed over tasks)
     * @param deviceEnergyNj the connector's deviceEnergyNj metric (summed over tasks)
     * @param scan          the scan's description, as EXPLAIN shows it
     */
    public record Result(Answer answer, long scanRows, long partialGroups, long linkBytes,
                         long driveScanned, long deviceTimeNs, long deviceEnergyNj,
                         String scan) {
    }

    private final SparkSession spark;

    private SparkQueries(SparkSession spark) {
        this.spark = spark;
    }

    /**
     * A {@code local[cores]} session whose {@code smartssd://} drives are those of
     * {@code conf} (its {@code smartssd.*} and {@code fs.smartssd.*} settings), with its
     * scratch in {@code work}. Adaptive execution is off, so that the executed plan (and its
     * metrics) is the one planned.
     */
    public static SparkQueries start(Configuration conf, Path work, int cores) {
        SparkSession.Builder b = SparkSession.builder().master("local[" + cores + "]")
                .appName("loganalyzer")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", String.valueOf(cores))
                .config("spark.sql.adaptive.enabled", "false")
                .config("spark.local.dir", work.resolve("spark-local").toString())
                .config("spark.sql.warehouse.dir", work.resolve("spark-warehouse").toUri()
                        .toString());
        for (Map.Entry<String, String> kv : conf) {
            String k = kv.getKey();
            if (k.startsWith("smartssd.") || k.startsWith("fs.smartssd.")) {
                b.config("spark.hadoop." + k, kv.getValue());
            }
        }
        return new SparkQueries(b.getOrCreate());
    }

    public SparkSession session() {
        return spark;
    }

    /** The trace at {@code smartssdPath} as a table of the connector's wc98 layout. */
    public Dataset<Row> table(String smartssdPath, int entrySize, boolean pushdown) {
        DataFrameReader r = spark.read().format("smartssd").option("layout", "wc98")
                .option("recordSize", String.valueOf(entrySize));
        if (!pushdown) {
            for (String o : PUSHDOWN_OPTIONS) {
                r = r.option(o, "false");
            }
        }
        return r.load(smartssdPath);
    }

    /** Runs {@code q} over the trace on the drive. */
    public Result run(Query q, String smartssdPath, int entrySize, boolean pushdown) {
        return run(q, table(smartssdPath, entrySize, pushdown));
    }

    /** Runs {@code q} over a Parquet copy written by {@link #writeParquet}. */
    public Result runParquet(Query q, String parquetUri) {
        return run(q, spark.read().parquet(parquetUri));
    }

    /** Copies the trace's columns (wc98, the bit fields included) to Parquet at a URI. */
    public void writeParquet(String smartssdPath, int entrySize, String parquetUri) {
        table(smartssdPath, entrySize, false).write().mode("overwrite").parquet(parquetUri);
    }

    private Result run(Query q, Dataset<Row> table) {
        String view = "trace_" + UUID.randomUUID().toString().replace("-", "");
        table.createOrReplaceTempView(view);
        try {
            Dataset<Row> df = spark.sql(String.format(q == Query.Q1 ? Q1_SQL : Q2_SQL, view));
            List<Row> rows = df.collectAsList();
            Answer a = q == Query.Q1 ? q1(rows) : q2(rows);
            Map<String, Long> m = new HashMap<>();
            String[] scan = {""};
            walk(df.queryExecution().executedPlan(), m, scan);
            return new Result(a, m.getOrDefault("numOutputRows", 0L),
                    m.getOrDefault("shuffleRecordsWritten", 0L), m.getOrDefault("linkBytes", 0L),
                    m.getOrDefault("driveBytesScanned", 0L), m.getOrDefault("deviceTimeNs", 0L),
                    m.getOrDefault("deviceEnergyNj", 0L), scan[0]);
        } finally {
            spark.catalog().dropTempView(view);
        }
    }

    /** Sums the metrics of the plan's scans (all of them) and shuffles (records written). */
    private static void walk(SparkPlan p, Map<String, Long> into, String[] scan) {
        boolean isScan = p instanceof BatchScanExec
                || p.nodeName().startsWith("Scan ") || p.getClass().getSimpleName()
                        .equals("FileSourceScanExec");
        if (isScan) {
            if (p instanceof BatchScanExec b) {
                scan[0] = b.scan().description();
            }
            for (Map.Entry<String, SQLMetric> e : CollectionConverters.asJava(p.metrics())
                    .entrySet()) {
                into.merge(e.getKey(), e.getValue().value(), Long::sum);
            }
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

    private static Answer q1(List<Row> rows) {
        long[] perRegion = new long[Region.CODES];
        for (Row r : rows) {
            perRegion[((Number) r.get(0)).intValue()] = r.getLong(1);
        }
        return Answer.q1(perRegion);
    }

    private static Answer q2(List<Row> rows) {
        Map<Integer, List<TypeCount>> m = new TreeMap<>();
        for (Row r : rows) {
            m.computeIfAbsent(((Number) r.get(0)).intValue(), k -> new ArrayList<>())
                    .add(new TypeCount(((Number) r.get(1)).intValue(), r.getLong(2)));
        }
        m.values().forEach(l -> l.sort((x, y) -> x.count() != y.count()
                ? Long.compare(y.count(), x.count()) : Integer.compare(x.type(), y.type())));
        return Answer.q2(m);
    }

    @Override
    public void close() {
        spark.stop();
    }
}
