package org.smartssd.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.fs.Path;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.spark.sql.catalyst.util.RebaseDateTime;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFilters;
import org.apache.spark.sql.internal.LegacyBehaviorPolicy;
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
 * A Parquet read: a partition per row group, each placed in the drive or on the host; the
 * description says how many went where and why (EXPLAIN shows it).
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
                for (Path f : files) {
                    ParquetFooter footer = ParquetFooter.readCached(f, plan.conf().hadoop());
                    List<BlockMetaData> groups = footer.rowGroups();
                    java.util.Set<BlockMetaData> kept = java.util.Collections.newSetFromMap(
                            new java.util.IdentityHashMap<>());
                    kept.addAll(footer.rowGroups(statisticsPredicate(footer)));
                    for (int g = 0; g < groups.size(); g++) {
                        BlockMetaData rg = groups.get(g);
                        if (!kept.contains(rg)) {
                            pruned++;
                            continue;
                        }
                        out.add(new ParquetRowGroupPartition(f.toString(), g, rg.getRowCount(),
                                rg.getStartingPos(), rg.getCompressedSize(),
                                hostReason(footer, rg)));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            partitions = out;
        }
        return partitions;
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

    private String hostReason(ParquetFooter footer, BlockMetaData rg) {
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
        return null;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        return partitions().toArray(new InputPartition[0]);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new Readers(plan, ParquetRowGroupReader.sparkReader(dataSchema, plan));
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
        long drive = partitions().stream().filter(x -> x.hostReason() == null).count();
        Map<String, Integer> host = new TreeMap<>();
        partitions().stream().filter(x -> x.hostReason() != null)
                .forEach(x -> host.merge(x.hostReason(), 1, Integer::sum));
        StringBuilder s = new StringBuilder("SmartSsdParquetScan [files=" + files.size()
                + ", rowGroups=" + partitions().size() + ", drive=" + drive
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
        host.forEach((why, n) -> s.append(", host(").append(n).append("): ").append(why));
        return s.append(']').toString();
    }
}
