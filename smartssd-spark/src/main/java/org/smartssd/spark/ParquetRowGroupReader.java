package org.smartssd.spark;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.LongToDoubleFunction;

import org.apache.hadoop.fs.Path;
import org.apache.spark.paths.SparkPath;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.datasources.FileFormat$;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.types.StructType;
import scala.Function1;
import scala.jdk.javaapi.CollectionConverters;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.unsafe.types.UTF8String;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.tasklet.BuiltinTasklet;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.TopN;
import org.smartssd.scan.DeviceAccess;
import org.smartssd.scan.parquet.DriveColumn;
import org.smartssd.scan.parquet.ParquetDriveScan;
import org.smartssd.scan.parquet.ParquetFooter;
import org.smartssd.scan.parquet.ParquetScanPlan;

/**
 * Reads a partition's row groups: in the drive (parquet-scan runs whose rows become
 * InternalRows), or on the host with Spark's own Parquet row reader (ParquetReadSupport over
 * parquet-mr) when the partition was placed there or the drive refuses a page the footer did
 * not reveal (then all of the partition's row groups).
 */
final class ParquetRowGroupReader implements PartitionReader<InternalRow> {
    private static final Logger LOG = LoggerFactory.getLogger(ParquetRowGroupReader.class);
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private final ParquetReadPlan plan;
    private final ParquetRowGroupPartition part;
    private final HostReader hostReader;
    private Iterator<InternalRow> rows;
    private InternalRow current;
    /** Where the partition's row groups ran (some may run in the drive and the rest on
     *  the host), the drive's returned rows' modelled host CPU, and the rows the host's
     *  reader gave. */
    private boolean onDrive;
    private boolean onHost;
    private double driveCpuNs;
    private final long[] hostRowsRead = new long[1];
    /** The host side's row groups, to price its work by ({@link #currentMetricsValues}). */
    private ParquetFooter hostFooter;
    private List<org.apache.parquet.hadoop.metadata.BlockMetaData> hostGroups;
    /** The modelled host CPU of the rows read so far, for the scan's metric. */
    private LongToDoubleFunction hostCpu;

    ParquetRowGroupReader(ParquetReadPlan plan, ParquetRowGroupPartition part,
                          HostReader hostReader) {
        this.plan = plan;
        this.part = part;
        this.hostReader = hostReader;
    }

    /** Spark's own Parquet row reader of the required columns, made on the driver. */
    record HostReader(Function1<PartitionedFile, scala.collection.Iterator<InternalRow>> read)
            implements java.io.Serializable {
    }

    /**
     * Spark's reader given every filter Spark offered the scan, as Spark's own Parquet scan
     * gives them: parquet-mr then skips the row groups and the pages (column and offset
     * indexes) whose statistics rule every row out. It returns the rows of the pages it
     * reads, matching or not: the filters are still applied to each row, by
     * {@link ParquetHostWork} (the pushed ones) and by Spark (the others).
     */
    static HostReader sparkReader(StructType dataSchema, ParquetReadPlan plan,
                                  org.apache.spark.sql.sources.Filter[] filters) {
        SparkSession s = SparkSession.active();
        scala.collection.immutable.Map<String, String> options =
                new scala.collection.immutable.Map.Map1<>(
                        FileFormat$.MODULE$.OPTION_RETURNING_BATCH(), "false");
        return new HostReader(new ParquetFileFormat().buildReaderWithPartitionValues(s,
                dataSchema, new StructType(), plan.hostSchema(),
                CollectionConverters.asScala(List.of(filters)).toList(), options,
                plan.conf().hadoop()));
    }

    @Override
    public boolean next() throws IOException {
        if (rows == null) {
            start();
        }
        try {
            if (!rows.hasNext()) {
                return false;
            }
            current = rows.next().copy();
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
        return true;
    }

    @Override
    public InternalRow get() {
        return current;
    }

    private void start() throws IOException {
        if (plan.required().isEmpty() && plan.tree().length == 0 && plan.aggregate() == null) {
            rows = emptyRows(plan.limit() > 0 ? Math.min(plan.limit(), part.rows())
                    : part.rows());
            return;
        }
        rows = part.hostReason() == null ? new DriveRuns() : hostRows(0);
    }

    /**
     * The partition's row groups in the drive, a parquet-scan run at a time, each run's rows
     * given before the next run starts (a partition's rows are never all held at once); a
     * LIMIT reached starts no further run. A run the drive refuses (a page the footer did not
     * reveal, no room for its budget) sends it and the row groups after it to the host.
     */
    private final class DriveRuns implements Iterator<InternalRow> {
        private final Path file = new Path(part.file());
        private final ParquetFooter footer;
        /** Looked up once for all the runs. */
        private DeviceAccess access;
        private final List<List<org.apache.parquet.hadoop.metadata.BlockMetaData>> runs;
        private int next;
        private int done;
        private long given;
        private Iterator<InternalRow> cur = java.util.Collections.emptyIterator();

        DriveRuns() throws IOException {
            footer = ParquetFooter.readCached(file, plan.conf().hadoop());
            runs = scanPlan(plan, footer).runs(footer.rowGroups()
                    .subList(part.rowGroup(), part.rowGroup() + part.rowGroups()));
        }

        @Override
        public boolean hasNext() {
            while (!cur.hasNext()) {
                boolean limited = plan.limit() > 0 && plan.aggregate() == null
                        && plan.topN() == null;
                if (next == runs.size() || (limited && given >= plan.limit())) {
                    return false;
                }
                List<org.apache.parquet.hadoop.metadata.BlockMetaData> g = runs.get(next++);
                try {
                    if (access == null) {
                        access = DeviceAccess.of(file, plan.conf().hadoop());
                    }
                    cur = driveRows(footer, g, runInDrive(plan, access, footer, g)).iterator();
                    onDrive = true;
                    done += g.size();
                } catch (ParquetDriveScan.Unsupported e) {
                    int from = part.rowGroup() + done;
                    LOG.warn("{} {} read on the host: {}", part.file(),
                            from == part.rowGroup() + part.rowGroups() - 1 ? "row group " + from
                                    : "row groups " + from + "-"
                                    + (part.rowGroup() + part.rowGroups() - 1), e.getMessage());
                    next = runs.size();
                    try {
                        cur = hostRows(done);
                    } catch (IOException io) {
                        throw new java.io.UncheckedIOException(io);
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            return true;
        }

        @Override
        public InternalRow next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            given++;
            return cur.next();
        }
    }

    /** Spark's reader over the partition's row groups from its {@code from}-th on. */
    private Iterator<InternalRow> hostRows(int from) throws IOException {
        Path file = new Path(part.file());
        hostFooter = ParquetFooter.readCached(file, plan.conf().hadoop());
        hostGroups = hostFooter.rowGroups().subList(part.rowGroup() + from,
                part.rowGroup() + part.rowGroups());
        long start = from == 0 ? part.start() : hostGroups.get(0).getStartingPos();
        long end = part.start() + part.length();
        PartitionedFile pf = new PartitionedFile(InternalRow.empty(),
                SparkPath.fromPath(file), start, end - start, new String[0], 0L,
                hostFooter.length(), scala.collection.immutable.Map$.MODULE$.empty());
        Iterator<InternalRow> read = CollectionConverters.asJava(hostReader.read().apply(pf));
        onHost = true;
        return new ParquetHostWork(plan).apply(new Iterator<>() {
            @Override
            public boolean hasNext() {
                return read.hasNext();
            }

            @Override
            public InternalRow next() {
                hostRowsRead[0]++;
                return read.next();
            }
        });
    }

    @Override
    public org.apache.spark.sql.connector.metric.CustomTaskMetric[] currentMetricsValues() {
        double cpu = driveCpuNs;
        if (onHost) {
            if (hostCpu == null) {
                hostCpu = ParquetAutoPlacement.hostCpu(plan, hostFooter, hostGroups);
            }
            cpu += hostCpu.applyAsDouble(hostRowsRead[0]);
        }
        return new org.apache.spark.sql.connector.metric.CustomTaskMetric[] {
            DriveMetrics.value(DriveMetrics.ON_DEVICE, onDrive ? 1 : 0),
            DriveMetrics.value(DriveMetrics.ON_HOST, onHost ? 1 : 0),
            DriveMetrics.value(DriveMetrics.PARQUET_HOST_CPU, Math.round(cpu)),
        };
    }

    private static Iterator<InternalRow> emptyRows(long n) {
        return java.util.stream.LongStream.range(0, n)
                .mapToObj(i -> (InternalRow) new GenericInternalRow(0)).iterator();
    }

    /** A drive run's answer over {@code groups} as rows, its returned rows' host CPU
     *  added to the partition's. */
    private List<InternalRow> driveRows(ParquetFooter footer,
                                        List<org.apache.parquet.hadoop.metadata.BlockMetaData> groups,
                                        DriveRun run) throws IOException {
        ParquetScanPlan p = run.scan();
        ParquetDriveScan.Result r = run.result();
        driveCpuNs += ParquetAutoPlacement.returnedCpuNs(plan, footer, groups,
                ParquetAutoPlacement.returnedRows(plan, r));
        DriveAggregates.Plan agg = plan.aggregate();
        ScanPlan.TopNSpec top = plan.topN();
        if (agg != null) {
            GroupAggregate.Merger m = new GroupAggregate.Merger(true);
            for (byte[] o : r.outputs()) {
                m.addAll(GroupAggregate.decode(o, BuiltinTasklet.PARQUET_SCAN).items());
            }
            return aggregateRows(plan, m);
        }
        List<Object[]> values = r.rows();
        if (top != null) {
            values = new ArrayList<>();
            for (byte[] o : r.outputs()) {
                for (TopN.Item it : TopN.decode(o, BuiltinTasklet.PARQUET_SCAN).items()) {
                    values.add(ParquetDriveScan.decodeRow(p, ByteBuffer.wrap(it.payload())));
                }
            }
        } else if (plan.nproj() == 0) {
            return listOfEmpty(r.matches());
        }
        StructField[] fields = plan.required().fields();
        List<InternalRow> out = new ArrayList<>(values.size());
        for (Object[] row : values) {
            Object[] v = new Object[fields.length];
            for (int j = 0; j < fields.length; j++) {
                v[j] = row[j] == null ? null : spark(fields[j].dataType(), row[j]);
            }
            out.add(new GenericInternalRow(v));
        }
        return out;
    }

    /** A row group's run in the drive: the scan plan sent, and what the drive returned. */
    record DriveRun(ParquetScanPlan scan, ParquetDriveScan.Result result) {
    }

    /**
     * Runs {@code plan}'s work over consecutive row groups {@code groups} of {@code file} in
     * the drive: as few parquet-scan runs as the plan's size allows.
     */
    static DriveRun runInDrive(ParquetReadPlan plan, Path file, ParquetFooter footer,
                               List<org.apache.parquet.hadoop.metadata.BlockMetaData> groups)
            throws IOException {
        return runInDrive(plan, DeviceAccess.of(file, plan.conf().hadoop()), footer, groups);
    }

    /** {@link #runInDrive} over a file already looked up on its drive. */
    static DriveRun runInDrive(ParquetReadPlan plan, DeviceAccess file, ParquetFooter footer,
                               List<org.apache.parquet.hadoop.metadata.BlockMetaData> groups)
            throws IOException {
        ParquetScanPlan p = scanPlan(plan, footer);
        int extra = plan.aggregate() != null || plan.topN() != null ? TABLE_BUDGET : 0;
        return new DriveRun(p, ParquetDriveScan.run(file, p, footer, groups,
                plan.topN() == null ? plan.limit() : 0, p.memoryBudget(groups) + extra, TIMEOUT));
    }

    /** The drive's scan plan of {@code plan} over {@code footer}'s file. */
    static ParquetScanPlan scanPlan(ParquetReadPlan plan, ParquetFooter footer) {
        List<DriveColumn> cols = new ArrayList<>();
        for (String n : plan.columns()) {
            cols.add(footer.column(n).supported().orElseThrow());
        }
        int[] proj = java.util.stream.IntStream.range(0, plan.nproj()).toArray();
        ParquetScanPlan.Builder b = ParquetScanPlan.builder(cols).where(plan.tree());
        DriveAggregates.Plan agg = plan.aggregate();
        ScanPlan.TopNSpec top = plan.topN();
        if (agg != null) {
            b.aggregate(ParquetAggregates.ops(agg), Math.max(agg.value(), 0), agg.keys());
        } else if (top != null) {
            b.topN(top.n(), top.column(), top.ascending(), new int[0], proj);
        } else if (proj.length == 0) {
            b.count().limit(plan.limit());
        } else {
            b.rows(proj).limit(plan.limit());
        }
        return b.build();
    }

    /** The group table a drive's AGGREGATE or TOPN run takes beyond its columns: a full
     *  table spills its partials, merged as any. */
    private static final int TABLE_BUDGET = 1 << 20;

    private static List<InternalRow> listOfEmpty(long n) {
        List<InternalRow> out = new ArrayList<>();
        emptyRows(n).forEachRemaining(out::add);
        return out;
    }

    /**
     * The partial groups of a row group as rows of the aggregate's schema (wire values as
     * Spark's); an aggregate without GROUP BY has its row over no rows too (COUNT 0, the
     * others NULL), as the row tables' partials.
     */
    static List<InternalRow> aggregateRows(ParquetReadPlan plan, GroupAggregate.Merger m) {
        DriveAggregates.Plan a = plan.aggregate();
        StructField[] f = plan.hostSchema().fields();
        List<InternalRow> rows = new ArrayList<>();
        if (m.result().isEmpty() && a.global()) {
            Object[] v = new Object[a.outputs().size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = a.outputs().get(i) == DriveAggregates.Kind.COUNT ? 0L : null;
            }
            rows.add(new GenericInternalRow(v));
            return rows;
        }
        DataType valueType = a.value() >= 0 ? f[a.value()].dataType() : null;
        for (GroupAggregate.Item it : m.result().values()) {
            Object[] v = new Object[a.outputs().size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = switch (a.outputs().get(i)) {
                    case KEY1 -> Values.fromWire(f[a.keys()[0]].dataType(), it.key1());
                    case KEY2 -> Values.fromWire(f[a.keys()[1]].dataType(), it.key2());
                    case COUNT -> it.count();
                    case SUM -> it.sum();
                    case MIN -> Values.fromWire(valueType, it.min());
                    case MAX -> Values.fromWire(valueType, it.max());
                    default -> throw new IllegalStateException("a Parquet aggregate has at "
                            + "most two keys");
                };
            }
            rows.add(new GenericInternalRow(v));
        }
        return rows;
    }

    /** A drive value (ParquetDriveScan's Java value) as Spark's internal value of {@code t}. */
    static Object spark(DataType t, Object v) {
        if (t instanceof StringType) {
            return UTF8String.fromBytes((byte[]) v);
        }
        if (t instanceof BinaryType) {
            return v;
        }
        if (t instanceof DecimalType d) {
            return new Decimal().set((Long) v, d.precision(), d.scale());
        }
        if (t instanceof IntegerType || t instanceof DateType) {
            return (int) (long) (Long) v;
        }
        if (t instanceof ShortType) {
            return (short) (long) (Long) v;
        }
        if (t instanceof ByteType) {
            return (byte) (long) (Long) v;
        }
        return v;
    }

    @Override
    public void close() {
        // the host reader closes its file when its iterator ends, or with the task
    }
}
