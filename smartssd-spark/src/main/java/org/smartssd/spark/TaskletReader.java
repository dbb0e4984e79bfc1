package org.smartssd.spark;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.unsafe.types.UTF8String;
import org.smartssd.device.EnergyReport;
import org.smartssd.device.InputRange;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.SolidStateCache.ScanRun;
import org.smartssd.device.StaleCacheBlockException;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.tasklet.Filter;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.GroupKey;
import org.smartssd.device.TaskletFailedException;
import org.smartssd.device.tasklet.HostTasklet;
import org.smartssd.device.tasklet.IncompleteOutputException;
import org.smartssd.device.tasklet.Projection;
import org.smartssd.device.tasklet.SplitRecords;
import org.smartssd.device.tasklet.TopN;
import org.smartssd.device.tasklet.Trailer;
import org.smartssd.fs.sscache.CachedFile;
import org.smartssd.scan.DriveQueue;
import org.smartssd.scan.Placement;
import org.smartssd.scan.SplitDrain;
import org.smartssd.scan.SplitPlanner;
import org.smartssd.scan.TaskletRun;
import org.smartssd.spark.TableLayout.Column;

/**
 * A partition read by one tasklet run over its byte range (Kang Fig. 6.5: create, execute,
 * poll, read the output); only the tasklet's output crosses the link. The output is decoded
 * into rows of the scan's read schema. A partition placed on the host
 * ({@link PartitionPlacement}) reads its raw records over the link instead and runs the
 * tasklet's host version ({@link HostTasklet}) here, whose output is the drive's, byte for
 * byte, and is decoded the same way: Spark has been told the operations are pushed. A range
 * of an {@code sscache://} file runs on both sides ({@link #runCached}), and the two outputs
 * are decoded and combined as two partitions' partial results are; so are the parts of a
 * node's partitions drained at run time ({@link DrainedPartition}, {@link #runDrained}).
 */
final class TaskletReader implements PartitionReader<InternalRow> {
    static final String SCRATCH = "/.smartssd-spark";
    private static final Duration WAIT = Duration.ofSeconds(1);
    private static final Duration TIMEOUT = Duration.ofHours(1);

    private final ScanPlan plan;
    /** The partition; for a drained one ({@link DrainedPartition}) its first part. */
    private final SmartSsdPartition part;
    private final DrainedPartition drained;
    private Iterator<InternalRow> rows;
    private InternalRow row;
    private long scanned;
    private long link;
    private long timeNs;
    private long energyNj;
    private long onDevice;
    private long onHost;
    private long estimatedDeviceNs;
    private long modelledDeviceNs;
    private long estimatedHostNs;
    private long modelledHostNs;
    private long hostCpuNs;
    private long cachedInDrive;
    private long cachedOnHost;
    private long drainRounds;
    private long drainMoved;

    TaskletReader(ScanPlan plan, SmartSsdPartition part) {
        this.plan = plan;
        this.part = part;
        this.drained = null;
    }

    TaskletReader(ScanPlan plan, DrainedPartition drained) {
        this.plan = plan;
        this.part = drained.parts().get(0);
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

    /** Linux's EOVERFLOW: a checked sum left its range. */
    private static final int EOVERFLOW = 75;

    private List<InternalRow> run() throws IOException {
        if (plan.mode() == ScanPlan.Mode.FILTER && plan.limit() == 0) {
            // a filter's limit of 0 means none to the drive: LIMIT 0 runs nothing
            return decode(List.of());
        }
        if (drained != null) {
            return runDrained();
        }
        if (part.length() == 0) {
            return decode(List.of());
        }
        DriveTarget t = DriveTarget.of(plan, part);
        if (t.cached() != null) {
            return decode(runCached(t));
        }
        return decode(List.of((part.onHost() ? runOnHost(t, part) : runQueued(t, part))
                .output()));
    }

    /** A device run of {@code p}, its estimate held in this JVM's account of the drive's
     *  queue while it runs. */
    private Ran runQueued(DriveTarget t, SmartSsdPartition p) throws IOException {
        String drive = new org.apache.hadoop.fs.Path(p.path()).toUri().getAuthority();
        long queued = p.side() == null ? 0 : p.deviceEstimateNs();
        DriveQueue.add(drive, queued);
        try {
            return runOnDevice(t, p);
        } finally {
            DriveQueue.add(drive, -queued);
        }
    }

    /**
     * A node's partitions drained by its drives and its host ({@link SplitDrain}, as a device
     * job drains a node's splits), each drive's side starting at its queue as the drive reports
     * it now. The outputs are decoded together, as partitions' partial results are combined;
     * a pushed LIMIT is the partition's, so the rows of the parts are cut to it.
     */
    private List<InternalRow> runDrained() throws IOException {
        List<SmartSsdPartition> parts = drained.parts();
        List<SplitPlanner.Estimate> est = new ArrayList<>();
        Map<String, Long> queues = new LinkedHashMap<>();
        for (SmartSsdPartition p : parts) {
            String drive = new org.apache.hadoop.fs.Path(p.path()).toUri().getAuthority();
            est.add(new SplitPlanner.Estimate(drive, drained.node(), p.deviceEstimateNs(),
                    p.hostEstimateNs(), p.length()));
            if (!queues.containsKey(drive)) {
                queues.put(drive, DriveQueue.pending(drive,
                        DriveTarget.of(plan, p).device()).ns());
            }
        }
        byte[][] outputs = new byte[parts.size()][];
        SplitDrain.Outcome o;
        try {
            o = SplitDrain.run(est, queues, (i, side) -> {
                SmartSsdPartition p = parts.get(i);
                if (p.length() == 0) {
                    return 0;
                }
                DriveTarget t = DriveTarget.of(plan, p);
                Ran r = side == Placement.HOST ? runOnHost(t, p) : runQueued(t, p);
                outputs[i] = r.output();
                return r.modelledNs();
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("drain of " + parts.size()
                    + " partitions interrupted");
        }
        synchronized (this) {
            drainRounds += o.rounds();
            for (int i = 0; i < parts.size(); i++) {
                if (o.sides().get(i) != parts.get(i).side()) {
                    drainMoved++;
                }
            }
        }
        List<byte[]> ran = new ArrayList<>();
        for (byte[] b : outputs) {
            if (b != null) {
                ran.add(b);
            }
        }
        List<InternalRow> rows = decode(ran);
        if (plan.mode() == ScanPlan.Mode.FILTER && plan.limit() > 0
                && rows.size() > plan.limit()) {
            return new ArrayList<>(rows.subList(0, (int) plan.limit()));
        }
        return rows;
    }

    /** A run's output, as the drive writes it, and its modelled ns (0 unplaced). */
    private record Ran(byte[] output, long modelledNs) {
    }

    private Ran runOnDevice(DriveTarget t, SmartSsdPartition part) throws IOException {
        String out = SCRATCH + "/" + UUID.randomUUID() + ".out";
        InputRange range = new InputRange(t.stat().oid(), part.start(), part.length());
        try (TaskletRun run = TaskletRun.start(t.device(), plan.spec(), range, out, TIMEOUT,
                t.accountant())) {
            while (!run.finished()) {
                run.next(WAIT);
            }
            TaskletProgress last = run.last();
            byte[] output = run.output();
            EnergyReport e = run.energy();
            long modelled = part.side() == null ? 0
                    : part.calibration().deviceModelNs(last, output.length);
            synchronized (this) {
                // text: the partition's bytes, and the end of the line open at its end
                scanned += plan.layout().isText() ? part.length()
                        : Trailer.of(output, plan.mode().tasklet).recordsIn()
                                * plan.layout().recordSize();
                link += output.length;
                timeNs += Math.max(0, last.finishedNs() - last.startedNs());
                energyNj += e == null || Double.isNaN(e.deviceJoules()) ? 0
                        : Math.round(e.deviceJoules() * 1e9);
                if (part.side() != null) {
                    onDevice++;
                    estimatedDeviceNs += part.deviceEstimateNs();
                    modelledDeviceNs += modelled;
                }
            }
            return new Ran(output, modelled);
        } catch (IOException e) {
            if (e instanceof TaskletFailedException f && Math.abs(f.status().errno()) == EOVERFLOW
                    && plan.aggregate() != null && plan.aggregate().checkedSum()) {
                // Spark's ANSI SUM of a LONG fails there too
                throw new ArithmeticException("[ARITHMETIC_OVERFLOW] long overflow: the drive's "
                        + "SUM over " + part.path() + " [" + part.start() + ", "
                        + (part.start() + part.length()) + ") left the range of a LONG "
                        + "(spark.sql.ansi.enabled is true; try_sum returns NULL instead)");
            }
            throw new IOException(plan.taskletName() + " run over " + part.path() + " ["
                    + part.start() + ", " + (part.start() + part.length()) + ") failed: "
                    + e.getMessage(), e);
        }
    }

    /** The host version over the range's records, read through smartssd://. */
    private Ran runOnHost(DriveTarget t, SmartSsdPartition part) throws IOException {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long cpu0 = mx.getCurrentThreadCpuTime();
        HostTasklet h = HostTasklet.of(plan.spec());
        long bytes;
        try (FSDataInputStream in = t.fs().open(t.path())) {
            bytes = SplitRecords.cut(plan.layout().recordLayout(), part.fileLength(),
                    part.start(), part.length(), in::read, h::accept);
        } catch (IOException e) {
            throw new IOException("host " + plan.taskletName() + " over " + part.path() + " ["
                    + part.start() + ", " + (part.start() + part.length()) + ") failed: "
                    + e.getMessage(), e);
        }
        byte[] output = h.finish();
        long modelled = part.calibration().hostNs(bytes, h.recordsIn());
        synchronized (this) {
            link += bytes;
            onHost++;
            estimatedHostNs += part.hostEstimateNs();
            modelledHostNs += modelled;
            hostCpuNs += Math.max(0, mx.getCurrentThreadCpuTime() - cpu0);
        }
        return new Ran(output, modelled);
    }

    /**
     * The range of an {@code sscache://} file: the tasklet in the drive over the records
     * wholly inside runs of cached blocks (one SSC_SCAN, each block checked against the
     * file's current version), then its host version over the other records, read through
     * the cache (hits from the drive, misses from the backing store). A scan stopped by a
     * stale block counts for nothing: the host does the whole range. \return the outputs of
     * the sides that ran, each as the drive writes it.
     */
    private List<byte[]> runCached(DriveTarget t) throws IOException {
        CachedFile file = t.cached();
        int rec = plan.layout().recordSize();
        long first = part.firstRecord(rec);
        long end = part.endRecord(rec);
        List<byte[]> outputs = new ArrayList<>();
        List<ScanRun> runs = end > first ? scanCached(file, outputs) : List.of();
        List<long[]> left;
        try {
            left = ScanRun.uncovered(runs, first, end);
        } catch (IOException e) {
            throw new IOException(part.path() + " [" + part.start() + ", "
                    + (part.start() + part.length()) + "): " + e.getMessage(), e);
        }
        long inDrive = runs.stream().mapToLong(ScanRun::records).sum();
        cachedInDrive += inDrive;
        long limitLeft = limitLeft(outputs);
        if (!left.isEmpty() && limitLeft != 0) {
            HostTasklet h = HostTasklet.of(limitLeft > 0 ? plan.spec(limitLeft) : plan.spec());
            try (FSDataInputStream in = t.fs().open(t.path())) {
                for (long[] iv : left) {
                    link += SplitRecords.cut(plan.layout().recordLayout(), part.fileLength(),
                            iv[0] * rec, (iv[1] - iv[0]) * rec, in::read, h::accept);
                }
            } catch (IOException e) {
                throw new IOException("host " + plan.taskletName() + " over the uncached "
                        + "records of " + part.path() + " [" + part.start() + ", "
                        + (part.start() + part.length()) + ") failed: " + e.getMessage(), e);
            }
            cachedOnHost += left.stream().mapToLong(iv -> iv[1] - iv[0]).sum();
            outputs.add(h.finish());
        }
        return outputs;
    }

    /**
     * What a pushed LIMIT leaves to the host's side of {@link #runCached}: the limit less the
     * drive's matches (0: nothing, the host reads no record); -1 without a limit. The limit
     * is the partition's, not each side's: Spark was told it is pushed, and the drive's and
     * the host's rows are appended into one partition.
     */
    private long limitLeft(List<byte[]> driveOutputs) throws IncompleteOutputException {
        if (plan.mode() != ScanPlan.Mode.FILTER || plan.limit() < 0) {
            return -1;
        }
        long matches = 0;
        for (byte[] o : driveOutputs) {
            matches += Trailer.of(o, plan.mode().tasklet).aux();
        }
        return Math.max(0, plan.limit() - matches);
    }

    /** The drive's side of {@link #runCached}: its output added to {@code outputs}; the runs
     *  it did (none when nothing is cached or a block was stale). */
    private List<ScanRun> scanCached(CachedFile file, List<byte[]> outputs) throws IOException {
        CachedFile.DriveScan scan;
        try {
            scan = file.scan(plan.spec(), SCRATCH + "/cached-" + UUID.randomUUID() + ".out",
                    part.start(), part.start() + part.length());
        } catch (StaleCacheBlockException e) {
            return List.of();
        } catch (IOException e) {
            throw new IOException(plan.taskletName() + " scan of the cached blocks of "
                    + part.path() + " [" + part.start() + ", " + (part.start() + part.length())
                    + ") failed: " + e.getMessage(), e);
        }
        if (!scan.runs().isEmpty()) {
            TaskletProgress last = scan.progress();
            // the records the tasklet read: fewer than the runs hold when a limit stopped it
            scanned += Trailer.of(scan.output(), plan.mode().tasklet).recordsIn()
                    * plan.layout().recordSize();
            link += scan.output().length;
            timeNs += Math.max(0, last.finishedNs() - last.startedNs());
            outputs.add(scan.output());
        }
        return scan.runs();
    }

    /** The rows of the outputs of the sides that ran (none: the range is empty), combined as
     *  partial results are. */
    private List<InternalRow> decode(List<byte[]> outputs) throws IncompleteOutputException {
        return switch (plan.mode()) {
            case FILTER -> {
                List<InternalRow> rows = new ArrayList<>();
                for (byte[] o : outputs) {
                    rows.addAll(filterRows(o));
                }
                yield rows;
            }
            case AGGREGATE -> aggregateRows(outputs);
            case TOP_N -> outputs.isEmpty() ? List.of() : topNRows(outputs);
            case READ -> throw new IllegalStateException("a plain read runs no tasklet");
        };
    }

    private List<InternalRow> filterRows(byte[] output) throws IncompleteOutputException {
        RecordLayout rl = plan.layout().recordLayout();
        Filter f = Filter.parse(plan.params());
        Filter.Output o = f.decode(output, rl);
        List<InternalRow> rows = new ArrayList<>();
        switch (o.mode()) {
            case COUNT -> {
                for (long i = 0; i < o.matches(); i++) {
                    rows.add(new GenericInternalRow(new Object[0]));
                }
            }
            case PROJECT -> o.rows().forEach(r -> rows.add(projected(r)));
            default -> o.records().forEach(r -> rows.add(whole(r)));
        }
        return rows;
    }

    private InternalRow whole(byte[] record) {
        if (plan.layout().isText()) {
            return new GenericInternalRow(Values.fromLine(plan.layout(), plan.columns(), record));
        }
        int[] c = plan.columns();
        Object[] v = new Object[c.length];
        for (int i = 0; i < c.length; i++) {
            v[i] = Values.fromRecord(plan.layout().columns().get(c[i]), record, 0);
        }
        return new GenericInternalRow(v);
    }

    private InternalRow projected(List<Object> values) {
        int[] c = plan.columns();
        Object[] v = new Object[c.length];
        for (int i = 0; i < c.length; i++) {
            Object x = values.get(i);
            Column col = plan.layout().columns().get(c[i]);
            v[i] = x instanceof byte[] b ? UTF8String.fromBytes(b, 0, plan.layout().isText()
                    ? b.length : Values.unpaddedLength(b, 0, b.length))
                    : Values.fromWire(col.sparkType(), (Long) x);
        }
        return new GenericInternalRow(v);
    }

    private List<InternalRow> aggregateRows(List<byte[]> outputs)
            throws IncompleteOutputException {
        DriveAggregates.Plan a = plan.aggregate();
        TableLayout layout = plan.layout();
        boolean signed = a.value() >= 0 && layout.columns().get(a.value()).signed();
        boolean floatSum = a.value() >= 0 && layout.columns().get(a.value()).isFloat();
        GroupAggregate.Merger m = new GroupAggregate.Merger(signed, floatSum
                ? GroupAggregate.SumKind.DOUBLE : a.checkedSum()
                ? GroupAggregate.SumKind.CHECKED : GroupAggregate.SumKind.WRAPPING);
        for (byte[] output : outputs) {
            m.addAll(GroupAggregate.decode(output).items());
        }
        Map<GroupKey, GroupAggregate.Item> groups = m.result();
        List<InternalRow> rows = new ArrayList<>();
        if (groups.isEmpty() && a.global()) {
            // an aggregate without GROUP BY has one row even over no records
            Object[] v = new Object[a.outputs().size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = a.outputs().get(i) == DriveAggregates.Kind.COUNT ? 0L : null;
            }
            rows.add(new GenericInternalRow(v));
            return rows;
        }
        DataType valueType = a.value() >= 0 ? layout.columns().get(a.value()).sparkType() : null;
        for (GroupAggregate.Item it : groups.values()) {
            Object[] v = new Object[a.outputs().size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = switch (a.outputs().get(i)) {
                    case KEY1, KEY2, KEY3, KEY4 -> {
                        int k = a.outputs().get(i).ordinal() - DriveAggregates.Kind.KEY1.ordinal();
                        yield Values.fromWire(layout.columns().get(a.keys()[k]).sparkType(),
                                DriveAggregates.key(layout, a.keys(), k, it.key1(), it.key2()));
                    }
                    case COUNT -> it.count();
                    case SUM -> floatSum ? (Object) Double.longBitsToDouble(it.sum()) : it.sum();
                    case MIN -> Values.fromWire(valueType, it.min());
                    case MAX -> Values.fromWire(valueType, it.max());
                };
            }
            rows.add(new GenericInternalRow(v));
        }
        return rows;
    }

    private List<InternalRow> topNRows(List<byte[]> outputs) throws IncompleteOutputException {
        ScanPlan.TopNSpec spec = plan.topN();
        TableLayout layout = plan.layout();
        TopN.Merger m = new TopN.Merger(spec.n(), spec.ascending(),
                layout.columns().get(spec.column()).signed());
        for (byte[] output : outputs) {
            m.addAll(TopN.decode(output).items());
        }
        List<InternalRow> rows = new ArrayList<>();
        List<TopN.Item> best = m.result().getOrDefault(GroupKey.NONE, List.of());
        Projection proj = plan.columns().length == 0
                || !ScanPlan.projectsExactly(layout, plan.columns()) ? null
                : new Projection(layout.recordLayout(), plan.columns());
        for (TopN.Item it : best) {
            rows.add(plan.columns().length == 0 ? new GenericInternalRow(new Object[0])
                    : proj == null ? whole(it.payload()) : projected(proj.decode(it.payload())));
        }
        return rows;
    }

    @Override
    public InternalRow get() {
        return row;
    }

    @Override
    public synchronized CustomTaskMetric[] currentMetricsValues() {
        return new CustomTaskMetric[] {
            DriveMetrics.value(DriveMetrics.SCANNED, scanned),
            DriveMetrics.value(DriveMetrics.LINK, link),
            DriveMetrics.value(DriveMetrics.TIME, timeNs),
            DriveMetrics.value(DriveMetrics.ENERGY, energyNj),
            DriveMetrics.value(DriveMetrics.ON_DEVICE, onDevice),
            DriveMetrics.value(DriveMetrics.ON_HOST, onHost),
            DriveMetrics.value(DriveMetrics.EST_DEVICE, estimatedDeviceNs),
            DriveMetrics.value(DriveMetrics.MODELLED_DEVICE, modelledDeviceNs),
            DriveMetrics.value(DriveMetrics.EST_HOST, estimatedHostNs),
            DriveMetrics.value(DriveMetrics.MODELLED_HOST, modelledHostNs),
            DriveMetrics.value(DriveMetrics.HOST_CPU, hostCpuNs),
            DriveMetrics.value(DriveMetrics.CACHE_DRIVE_RECORDS, cachedInDrive),
            DriveMetrics.value(DriveMetrics.CACHE_DRIVE_BYTES,
                    cachedInDrive * plan.layout().recordSize()),
            DriveMetrics.value(DriveMetrics.CACHE_HOST_RECORDS, cachedOnHost),
            DriveMetrics.value(DriveMetrics.CACHE_HOST_BYTES,
                    cachedOnHost * plan.layout().recordSize()),
            DriveMetrics.value(DriveMetrics.DRAIN_ROUNDS, drainRounds),
            DriveMetrics.value(DriveMetrics.DRAIN_MOVED, drainMoved),
        };
    }

    @Override
    public void close() {
        rows = null;
    }
}
