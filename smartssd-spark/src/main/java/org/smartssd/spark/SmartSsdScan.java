package org.smartssd.spark;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/**
 * A scan of one file: a tasklet run (or a plain record read) per partition. Its
 * {@link #description()} is what EXPLAIN shows, in the words of Spark's own sources.
 */
public class SmartSsdScan implements Scan, Batch {
    private final ScanPlan plan;
    private final List<SmartSsdPartition> partitions;
    private InputPartition[] placed;

    SmartSsdScan(ScanPlan plan, List<SmartSsdPartition> partitions) {
        this.plan = plan;
        this.partitions = partitions;
    }

    @Override
    public StructType readSchema() {
        return plan.readSchema();
    }

    @Override
    public String description() {
        StringBuilder sb = new StringBuilder("SmartSsdScan drive: ").append(plan.drive())
                .append(", path: ").append(plan.path())
                .append(", layout: ").append(plan.layout())
                .append(", tasklet: ").append(plan.taskletName())
                .append(plan.columnar() ? ", columnar" : "")
                .append(", partitions: ").append(partitions.size())
                .append(plan.placement() != null && plan.mode() != ScanPlan.Mode.READ
                        ? ", placement: " + plan.placement().cliName() : "")
                .append(", PushedFilters: ").append(plan.pushedFilters());
        DriveAggregates.Plan a = plan.aggregate();
        if (a != null) {
            sb.append(", PushedAggregates: [").append(String.join(", ", a.described()))
                    .append("], PushedGroupByExpressions: [")
                    .append(Arrays.stream(a.keys())
                            .mapToObj(k -> plan.layout().columns().get(k).name())
                            .collect(Collectors.joining(", ")))
                    .append("]");
        }
        if (plan.topN() != null) {
            sb.append(", PushedTopN: ORDER BY [").append(plan.topN().described())
                    .append("] LIMIT ").append(plan.topN().n());
        } else if (plan.limit() >= 0) {
            sb.append(", PushedLimit: LIMIT ").append(plan.limit());
        }
        return sb.append(", ReadSchema: ").append(plan.readSchema().catalogString()).toString();
    }

    @Override
    public String toString() {
        return description();
    }

    /** Said once for the scan, so that planning asks no partition. */
    @Override
    public ColumnarSupportMode columnarSupportMode() {
        return plan.columnar() ? ColumnarSupportMode.SUPPORTED : ColumnarSupportMode.UNSUPPORTED;
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    /** The partitions, placed once ({@link PartitionPlacement}): calibrating runs the
     *  tasklet on each drive, which a second planning of the same scan need not repeat. */
    @Override
    public synchronized InputPartition[] planInputPartitions() {
        if (placed == null) {
            try {
                placed = PartitionPlacement.place(plan, partitions)
                        .toArray(new InputPartition[0]);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("placement " + plan.placement()
                        + " of " + plan.path() + ": " + e.getMessage(), e);
            }
        }
        return placed.clone();
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new SmartSsdReaderFactory(plan);
    }

    @Override
    public CustomMetric[] supportedCustomMetrics() {
        return DriveMetrics.all();
    }
}
