package org.smartssd.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.apache.hadoop.fs.Path;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.spark.sql.catalyst.util.RebaseDateTime;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFilters;
import org.apache.spark.sql.internal.LegacyBehaviorPolicy;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.smartssd.scan.parquet.DriveColumn;
import org.smartssd.scan.parquet.ParquetFooter;

/**
 * A Parquet read: partitions of consecutive row groups, each placed in the drive or on the
 * host; the description says how many row groups went where and why (EXPLAIN shows it).
 */
final class ParquetScan implements Scan, Batch {
    private final ParquetReadPlan plan;
    private final List<Path> files;
    private final Filter[] pushed;
    private final StructType dataSchema;
    /** Every filter Spark offered: Spark's ParquetFilters makes the statistics' predicate. */
    private final Filter[] filters;
    private int pruned;
    private List<ParquetRowGroupPartition> partitions;
    /** With {@code auto}: each file's estimates (null: none, read in the drive). */
    private final List<ParquetAutoPlacement.Estimate> estimates = new ArrayList<>();

    ParquetScan(ParquetReadPlan plan, StructType dataSchema, List<Path> files, Filter[] pushed,
                Filter[] filters) {
        this.plan = plan;
        this.filters = filters;
        this.dataSchema = dataSchema;
        this.files = files;
        this.pushed = pushed;
    }

    /** The filters the drive runs, as EXPLAIN lists them. */
    Filter[] pushedFilters() {
        return pushed.clone();
    }

    @Override
    public StructType readSchema() {
        return plan.readSchema();
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    private synchronized List<ParquetRowGroupPartition> partitions() {
        if (partitions == null) {
            List<ParquetRowGroupPartition> out = new ArrayList<>();
            try {
                long total = 0;
                for (Path f : files) {
                    total += ParquetFooter.readCached(f, plan.conf().hadoop()).length();
                }
                long maxBytes = splitBytes(SparkSession.active(), total, files.size());
                for (Path f : files) {
                    ParquetFooter footer = ParquetFooter.readCached(f, plan.conf().hadoop());
                    List<BlockMetaData> groups = footer.rowGroups();
                    Set<BlockMetaData> kept = Collections.newSetFromMap(new IdentityHashMap<>());
                    kept.addAll(footer.rowGroups(statisticsPredicate(footer)));
                    String[] why = new String[groups.size()];
                    scala.Enumeration.Value calendar = ParquetCalendar.mode(footer);
                    List<BlockMetaData> inDrive = new ArrayList<>();
                    for (int g = 0; g < groups.size(); g++) {
                        if (!kept.contains(groups.get(g))) {
                            pruned++;
                            continue;
                        }
                        why[g] = hostReason(footer, groups.get(g), calendar);
                        if (why[g] == null) {
                            inDrive.add(groups.get(g));
                        }
                    }
                    if (plan.auto() && !inDrive.isEmpty()) {
                        Optional<ParquetAutoPlacement.Estimate> e =
                                ParquetAutoPlacement.estimate(plan, footer, inDrive);
                        estimates.add(e.orElse(null));
                        if (e.isPresent() && e.get().host()) {
                            for (int g = 0; g < groups.size(); g++) {
                                if (why[g] == null && kept.contains(groups.get(g))) {
                                    why[g] = AUTO_HOST;
                                }
                            }
                        }
                    }
                    out.addAll(partitionsOf(f, groups, kept, why, maxBytes));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            partitions = out;
        }
        return partitions;
    }

    static final String AUTO_HOST = "placement=auto: host estimated faster";

    /**
     * Spark's own split size for file scans ({@code FilePartition.maxSplitBytes}): at most
     * {@code spark.sql.files.maxPartitionBytes}, and smaller when that would leave fewer
     * partitions than {@code spark.sql.files.minPartitionNum} (default: the leaf nodes'
     * parallelism), each file counted {@code spark.sql.files.openCostInBytes} more, never
     * below that cost.
     */
    static long splitBytes(SparkSession spark, long totalBytes, int files) {
        org.apache.spark.sql.internal.SQLConf c = spark.sessionState().conf();
        long open = c.filesOpenCostInBytes();
        scala.Option<Object> min = c.filesMinPartitionNum();
        scala.Option<String> leaf = spark.conf().getOption("spark.sql.leafNodeDefaultParallelism");
        int parts = min.isDefined() ? (Integer) min.get() : leaf.isDefined()
                ? Integer.parseInt(leaf.get()) : spark.sparkContext().defaultParallelism();
        long perCore = (totalBytes + files * open) / Math.max(1, parts);
        return Math.min(c.filesMaxPartitionBytes(), Math.max(open, perCore));
    }

    /**
     * The kept row groups as partitions: each run of consecutive kept groups placed alike (in
     * the drive, or on the host for one reason) up to {@code maxBytes} of the file (Spark's
     * own split size) is one partition. On the host Spark's reader then fetches the footer
     * once a partition and each chunk once, as it does over the file itself; in the drive
     * the partition's row groups go to parquet-scan as few runs as its plan's size allows,
     * each run's buffers allocated (and charged) once for all its row groups.
     */
    private static List<ParquetRowGroupPartition> partitionsOf(Path f, List<BlockMetaData> groups,
                                                               Set<BlockMetaData> kept,
                                                               String[] why, long maxBytes) {
        List<ParquetRowGroupPartition> out = new ArrayList<>();
        ParquetRowGroupPartition open = null;
        for (int g = 0; g < groups.size(); g++) {
            BlockMetaData rg = groups.get(g);
            long end = rg.getStartingPos() + rg.getCompressedSize();
            if (open != null && (!kept.contains(rg) || !Objects.equals(why[g], open.hostReason())
                    || end - open.start() > maxBytes)) {
                out.add(open);
                open = null;
            }
            if (!kept.contains(rg)) {
                continue;
            }
            if (open == null) {
                open = new ParquetRowGroupPartition(f.toString(), g, 1, rg.getRowCount(),
                        rg.getStartingPos(), rg.getCompressedSize(), why[g]);
            } else {
                open = new ParquetRowGroupPartition(f.toString(), open.rowGroup(),
                        open.rowGroups() + 1, open.rows() + rg.getRowCount(), open.start(),
                        end - open.start(), why[g]);
            }
        }
        if (open != null) {
            out.add(open);
        }
        return out;
    }

    /**
     * The filters as a parquet-mr predicate, made by Spark's own ParquetFilters (as Spark's
     * Parquet source prunes row groups), or null. Dates and timestamps are left out: their
     * statistics may be in the legacy hybrid calendar, which Spark's source reads from the
     * file's metadata first.
     */
    private FilterPredicate statisticsPredicate(ParquetFooter footer) {
        ParquetFilters pf = new ParquetFilters(footer.schema(), false, false, true, true, 10,
                false, new RebaseDateTime.RebaseSpec(LegacyBehaviorPolicy.CORRECTED(),
                scala.Option.empty()));
        FilterPredicate all = null;
        for (Filter f : filters) {
            scala.Option<FilterPredicate> p = pf.createFilter(f);
            if (p.isDefined()) {
                all = all == null ? p.get() : FilterApi.and(all, p.get());
            }
        }
        return all;
    }

    private String hostReason(ParquetFooter footer, BlockMetaData rg,
                              scala.Enumeration.Value calendar) {
        if (plan.hostReason() != null) {
            return plan.hostReason();
        }
        for (String n : plan.columns()) {
            DriveColumn.Typing t = footer.column(n);
            if (t.unsupported() != null) {
                return t.unsupported();
            }
            var why = footer.chunkRefusal(t.column(), List.of(rg));
            if (why.isPresent()) {
                return why.get();
            }
        }
        return ParquetCalendar.hostReason(footer, calendar, rg, plan.columns());
    }

    /** {@code placement=auto: host (device 23.1 s, host 0.29 s est.)}, the sums per side
     *  when files went both ways. */
    private String autoDescribed() {
        StringBuilder s = new StringBuilder("placement=auto:");
        String sep = " ";
        for (boolean toHost : new boolean[] {true, false}) {
            double d = 0;
            double h = 0;
            double dj = 0;
            double hj = 0;
            int n = 0;
            for (ParquetAutoPlacement.Estimate e : estimates) {
                if (e != null && e.host() == toHost) {
                    d += e.deviceNs();
                    h += e.hostNs();
                    dj += e.deviceJ();
                    hj += e.hostJ();
                    n++;
                }
            }
            if (n > 0) {
                s.append(sep).append(toHost ? "host" : "device")
                        .append(n == estimates.size() ? "" : " for " + n + " files").append(" (")
                        .append(new ParquetAutoPlacement.Estimate(d, h, dj, hj, "").described())
                        .append(String.format(java.util.Locale.ROOT,
                                "; device %.3g J, host %.3g J est.)", dj, hj));
                sep = ", ";
            }
        }
        long none = estimates.stream().filter(java.util.Objects::isNull).count();
        if (none > 0) {
            s.append(sep).append("device for ").append(none).append(" files (no estimate: "
                    + "the drive has no model counters or refused the probe)");
        }
        return s.toString();
    }

    @Override
    public InputPartition[] planInputPartitions() {
        return partitions().toArray(new InputPartition[0]);
    }

    @Override
    public org.apache.spark.sql.connector.metric.CustomMetric[] supportedCustomMetrics() {
        return new org.apache.spark.sql.connector.metric.CustomMetric[] {
            new DriveMetrics.OnDevice(), new DriveMetrics.OnHost(),
            new DriveMetrics.ParquetHostCpu()};
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new Readers(plan, ParquetRowGroupReader.sparkReader(dataSchema, plan, filters));
    }

    private record Readers(ParquetReadPlan plan, ParquetRowGroupReader.HostReader host)
            implements PartitionReaderFactory {
        @Override
        public PartitionReader<InternalRow> createReader(InputPartition partition) {
            return new ParquetRowGroupReader(plan, (ParquetRowGroupPartition) partition, host);
        }
    }

    @Override
    public String description() {
        int drive = partitions().stream().filter(x -> x.hostReason() == null)
                .mapToInt(ParquetRowGroupPartition::rowGroups).sum();
        int groups = partitions().stream().mapToInt(ParquetRowGroupPartition::rowGroups).sum();
        Map<String, Integer> host = new TreeMap<>();
        partitions().stream().filter(x -> x.hostReason() != null)
                .forEach(x -> host.merge(x.hostReason(), x.rowGroups(), Integer::sum));
        StringBuilder s = new StringBuilder("SmartSsdParquetScan [files=" + files.size()
                + ", rowGroups=" + groups + ", drive=" + drive
                + ", prunedByStatistics=" + pruned
                + ", columns=" + plan.columns() + ", pushedFilters="
                + Arrays.toString(pushed));
        if (plan.aggregate() != null) {
            s.append(", pushedAggregates=").append(plan.aggregate().described())
                    .append(", groupBy=").append(plan.aggregate().keys().length == 0 ? "[]"
                            : java.util.Arrays.stream(plan.aggregate().keys())
                            .mapToObj(plan.columns()::get).toList());
        }
        if (plan.topN() != null) {
            s.append(", pushedTopN=").append(plan.topN().n()).append(" by ")
                    .append(plan.topN().described());
        }
        if (plan.limit() > 0) {
            s.append(", pushedLimit=").append(plan.limit());
        }
        plan.notPushed().forEach(why -> s.append(", notPushed: ").append(why));
        if (!estimates.isEmpty()) {
            s.append(", ").append(autoDescribed());
        }
        host.forEach((why, n) -> s.append(", host(").append(n).append("): ").append(why));
        return s.append(']').toString();
    }
}
