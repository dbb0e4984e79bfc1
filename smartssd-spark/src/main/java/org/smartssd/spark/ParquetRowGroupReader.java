package org.smartssd.spark;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

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
import org.smartssd.scan.DeviceAccess;
import org.smartssd.scan.parquet.DriveColumn;
import org.smartssd.scan.parquet.ParquetDriveScan;
import org.smartssd.scan.parquet.ParquetFooter;
import org.smartssd.scan.parquet.ParquetScanPlan;

/**
 * Reads one row group: in the drive (a parquet-scan run whose rows become InternalRows), or
 * on the host with Spark's own Parquet row reader (ParquetReadSupport over parquet-mr) when
 * the partition was placed there or the drive refuses a page the footer did not reveal.
 */
final class ParquetRowGroupReader implements PartitionReader<InternalRow> {
    private static final Logger LOG = LoggerFactory.getLogger(ParquetRowGroupReader.class);
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private final ParquetReadPlan plan;
    private final ParquetRowGroupPartition part;
    private final HostReader hostReader;
    private Iterator<InternalRow> rows;
    private InternalRow current;

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
                dataSchema, new StructType(), plan.required(),
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
        if (plan.required().isEmpty()) {
            rows = emptyRows(part.rows());
            return;
        }
        if (part.hostReason() == null) {
            try {
                rows = driveRows().iterator();
                return;
            } catch (ParquetDriveScan.Unsupported e) {
                LOG.warn("{} row group {} read on the host: {}", part.file(), part.rowGroup(),
                        e.getMessage());
            }
        }
        Path file = new Path(part.file());
        long size = file.getFileSystem(plan.conf().hadoop()).getFileStatus(file).getLen();
        PartitionedFile pf = new PartitionedFile(InternalRow.empty(),
                SparkPath.fromPath(file), part.start(), part.length(), new String[0], 0L, size,
                scala.collection.immutable.Map$.MODULE$.empty());
        rows = CollectionConverters.asJava(hostReader.read().apply(pf));
    }

    private static Iterator<InternalRow> emptyRows(long n) {
        return java.util.stream.LongStream.range(0, n)
                .mapToObj(i -> (InternalRow) new GenericInternalRow(0)).iterator();
    }

    private List<InternalRow> driveRows() throws IOException {
        Configuration conf = plan.conf().hadoop();
        Path file = new Path(part.file());
        ParquetFooter footer = ParquetFooter.readCached(file, conf);
        List<DriveColumn> cols = new ArrayList<>();
        for (String n : plan.columns()) {
            cols.add(footer.column(n).supported().orElseThrow());
        }
        int[] proj = java.util.stream.IntStream.range(0, plan.nproj()).toArray();
        ParquetScanPlan p = ParquetScanPlan.builder(cols).rows(proj).where(plan.tree()).build();
        List<org.apache.parquet.hadoop.metadata.BlockMetaData> group =
                List.of(footer.rowGroups().get(part.rowGroup()));
        ParquetDriveScan.Result r = ParquetDriveScan.run(DeviceAccess.of(file, conf), p,
                footer, group, 0, p.memoryBudget(group), TIMEOUT);
        StructField[] fields = plan.required().fields();
        List<InternalRow> out = new ArrayList<>(r.rows().size());
        for (Object[] row : r.rows()) {
            Object[] v = new Object[fields.length];
            for (int j = 0; j < fields.length; j++) {
                v[j] = row[j] == null ? null : spark(fields[j].dataType(), row[j]);
            }
            out.add(new GenericInternalRow(v));
        }
        return out;
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
