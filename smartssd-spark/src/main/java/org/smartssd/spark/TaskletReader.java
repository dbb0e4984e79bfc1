package org.smartssd.spark;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.smartssd.scan.ScanExecution;
import org.smartssd.scan.ScanPart;
import org.smartssd.scan.ScanRange;
import org.smartssd.scan.ScanStats;
import org.smartssd.scan.ScanTask;

/**
 * A partition whose pushed operations run as a scan (smartssd-scan's {@link ScanExecution},
 * this partition the engine: {@link PartitionEngine}): one tasklet run over its byte range
 * in the drive (Kang Fig. 6.5: create, execute, poll, read the output), so only the
 * tasklet's output crosses the link; placed on the host ({@link PartitionPlacement}), the
 * tasklet's host version over its raw records; of an {@code sscache://} file, both; a node's
 * partitions drained at run time ({@link NodeDrainPartition}), each where the drain puts it.
 * The outputs are decoded into rows of the scan's read schema and combined as partitions'
 * partial results are ({@link OutputRows}); what ran is the task's metrics
 * ({@link DriveMetrics}).
 */
final class TaskletReader implements PartitionReader<InternalRow> {
    private final ScanPlan plan;
    private final List<SmartSsdPartition> parts;
    private final NodeDrainPartition drained;
    private Iterator<InternalRow> rows;
    private InternalRow row;
    private volatile ScanStats stats = ScanStats.NONE;

    TaskletReader(ScanPlan plan, SmartSsdPartition part) {
        this.plan = plan;
        this.parts = List.of(part);
        this.drained = null;
    }

    TaskletReader(ScanPlan plan, NodeDrainPartition drained) {
        this.plan = plan;
        this.parts = drained.parts();
        this.drained = drained;
    }

    @Override
    public boolean next() throws IOException {
        if (rows == null) {
            rows = run().iterator();
        }
        if (!rows.hasNext()) {
            return false;
        }
        row = rows.next();
        return true;
    }

    private List<InternalRow> run() throws IOException {
        OutputRows decoder = new OutputRows(plan);
        if (plan.mode() == ScanPlan.Mode.FILTER && plan.limit() == 0) {
            // a filter's limit of 0 means none to the drive: LIMIT 0 runs nothing
            return decoder.decode(List.of());
        }
        List<ScanPart> scanParts = new ArrayList<>();
        for (SmartSsdPartition p : parts) {
            scanParts.add(new ScanPart(scanParts.size(), new ScanRange(new Path(p.path()),
                    p.start(), p.length(), p.hosts()), p.side(), p.deviceEstimateNs(),
                    p.hostEstimateNs(), p.calibration()));
        }
        ScanTask task = drained == null
                ? ScanTask.single(plan.conf().hadoop(), plan.spec(), scanParts.get(0))
                : ScanTask.drained(plan.conf().hadoop(), plan.spec(), scanParts, drained.node());
        PartitionEngine engine = new PartitionEngine(plan, parts);
        try {
            stats = ScanExecution.run(task, engine);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("scan of " + parts.size() + " partitions "
                    + "interrupted");
        }
        List<InternalRow> rows = decoder.decode(engine.outputs());
        if (drained != null && plan.mode() == ScanPlan.Mode.FILTER && plan.limit() > 0
                && rows.size() > plan.limit()) {
            // a pushed LIMIT is the partition's: the parts' rows are cut to it
            return new ArrayList<>(rows.subList(0, (int) plan.limit()));
        }
        return rows;
    }

    @Override
    public InternalRow get() {
        return row;
    }

    @Override
    public CustomTaskMetric[] currentMetricsValues() {
        return DriveMetrics.of(stats, plan.layout().recordSize());
    }

    @Override
    public void close() {
        rows = null;
    }
}
