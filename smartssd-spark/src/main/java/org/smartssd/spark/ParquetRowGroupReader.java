package org.smartssd.spark;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.LongToDoubleFunction;

import org.apache.hadoop.conf.Configuration;
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
    /** Where the partition ran (0 none yet, 1 drive, 2 host), the drive's returned rows'
     *  modelled host CPU, and the rows the host's reader gave. */
    private int side;
    private double driveCpuNs;
    private final long[] hostRowsRead = new long[1];
    /** The host side's row groups, to price its work by ({@link #currentMetricsValues}). */
    private ParquetFooter hostFooter;
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

    static HostReader sparkReader(StructType dataSchema, ParquetReadPlan plan) {
        SparkSession s = SparkSession.active();
        scala.collection.immutable.Map<String, String> options =
                new scala.collection.immutable.Map.Map1<>(
                        FileFormat$.MODULE$.OPTION_RETURNING_BATCH(), "false");
        return new HostReader(new ParquetFileFormat().buildReaderWithPartitionValues(s,
                dataSchema, new StructType(), plan.hostSchema(),
                scala.collection.immutable.List$.MODULE$.empty(), options,
                plan.conf().hadoop()));
    }

    @Override
    public boolean next() throws IOException {
        if (rows == null) {
            start();
        }
        if (!rows.hasNext()) {
            return false;
        }
        current = rows.next().copy();
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
        if (part.hostReason() == null) {
            try {
                rows = driveRows().iterator();
                side = 1;
                return;
            } catch (ParquetDriveScan.Unsupported e) {
                LOG.warn("{} {} read on the host: {}", part.file(), part.rowGroups() == 1
                        ? "row group " + part.rowGroup() : "row groups " + part.rowGroup() + "-"
                        + (part.rowGroup() + part.rowGroups() - 1), e.getMessage());
            }
        }
        Path file = new Path(part.file());
        hostFooter = ParquetFooter.readCached(file, plan.conf().hadoop());
        long size = hostFooter.length();
        PartitionedFile pf = new PartitionedFile(InternalRow.empty(),
                SparkPath.fromPath(file), part.start(), part.length(), new String[0], 0L, size,
                scala.collection.immutable.Map$.MODULE$.empty());
        Iterator<InternalRow> read = CollectionConverters.asJava(hostReader.read().apply(pf));
        side = 2;
        rows = new ParquetHostWork(plan).apply(new Iterator<>() {
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
        if (side == 2) {
            if (hostCpu == null) {
                hostCpu = ParquetAutoPlacement.hostCpu(plan, hostFooter, hostFooter.rowGroups()
                        .subList(part.rowGroup(), part.rowGroup() + part.rowGroups()));
            }
            cpu = hostCpu.applyAsDouble(hostRowsRead[0]);
        }
        return new org.apache.spark.sql.connector.metric.CustomTaskMetric[] {
            DriveMetrics.value(DriveMetrics.ON_DEVICE, side == 1 ? 1 : 0),
            DriveMetrics.value(DriveMetrics.ON_HOST, side == 2 ? 1 : 0),
            DriveMetrics.value(DriveMetrics.PARQUET_HOST_CPU, Math.round(cpu)),
        };
    }

    private static Iterator<InternalRow> emptyRows(long n) {
        return java.util.stream.LongStream.range(0, n)
                .mapToObj(i -> (InternalRow) new GenericInternalRow(0)).iterator();
    }

    private List<InternalRow> driveRows() throws IOException {
        Configuration conf = plan.conf().hadoop();
        Path file = new Path(part.file());
        ParquetFooter footer = ParquetFooter.readCached(file, conf);
        List<org.apache.parquet.hadoop.metadata.BlockMetaData> groups = footer.rowGroups()
                .subList(part.rowGroup(), part.rowGroup() + part.rowGroups());
        DriveRun run = runInDrive(plan, file, footer, groups);
        ParquetScanPlan p = run.scan();
        ParquetDriveScan.Result r = run.result();
        driveCpuNs = ParquetAutoPlacement.returnedCpuNs(plan, footer, groups,
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
        List<DriveColumn> cols = new ArrayList<>();
        for (String n : plan.columns()) {
            cols.add(footer.column(n).supported().orElseThrow());
        }
        int[] proj = java.util.stream.IntStream.range(0, plan.nproj()).toArray();
        ParquetScanPlan.Builder b = ParquetScanPlan.builder(cols).where(plan.tree());
        DriveAggregates.Plan agg = plan.aggregate();
        ScanPlan.TopNSpec top = plan.topN();
        int extra = 0;
        if (agg != null) {
            b.aggregate(ParquetAggregates.ops(agg), Math.max(agg.value(), 0), agg.keys());
            extra = TABLE_BUDGET;
        } else if (top != null) {
            b.topN(top.n(), top.column(), top.ascending(), new int[0], proj);
            extra = TABLE_BUDGET;
        } else if (proj.length == 0) {
            b.count().limit(plan.limit());
        } else {
            b.rows(proj).limit(plan.limit());
        }
        ParquetScanPlan p = b.build();
        return new DriveRun(p, ParquetDriveScan.run(DeviceAccess.of(file, plan.conf().hadoop()),
                p, footer, groups, top == null ? plan.limit() : 0,
                p.memoryBudget(groups) + extra, TIMEOUT));
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
