package org.smartssd.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.smartssd.device.tasklet.BuiltinTasklet;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.scan.DeviceAccess;
import org.smartssd.scan.parquet.DriveColumn;
import org.smartssd.scan.parquet.ParquetDriveScan;
import org.smartssd.scan.parquet.ParquetFooter;
import org.smartssd.scan.parquet.ParquetScanPlan;

/**
 * The input of a device job over Parquet files ({@link DeviceJob#setParquetScan}): one split
 * per row group, naming the drive's host, whose reader runs the job's {@link ParquetQuery} as
 * one parquet-scan run in the drive and gives its result. AGGREGATE: (key1, key2) →
 * {@link AggregateWritable}, partial per row group, merged exactly by
 * {@link AggregateReducer}. ROWS: (row group's first byte, row in it) → the projected values
 * as text, tab-separated ({@code \N} for NULL; DECIMAL with its scale, DATE as days,
 * TIMESTAMP as microseconds, FLOAT/DOUBLE as Java prints them).
 */
public class ParquetRowGroupInputFormat extends FileInputFormat<LongPairWritable, Writable> {
    /** A row group of a file: the bytes of its chunks, and its index in the footer. */
    public static class RowGroupSplit extends FileSplit {
        private int rowGroup;

        public RowGroupSplit() {
        }

        RowGroupSplit(Path file, long start, long length, String[] hosts, int rowGroup) {
            super(file, start, length, hosts);
            this.rowGroup = rowGroup;
        }

        public int rowGroup() {
            return rowGroup;
        }

        @Override
        public void write(DataOutput out) throws IOException {
            super.write(out);
            out.writeInt(rowGroup);
        }

        @Override
        public void readFields(DataInput in) throws IOException {
            super.readFields(in);
            rowGroup = in.readInt();
        }
    }

    @Override
    protected boolean isSplitable(JobContext context, Path filename) {
        return false;
    }

    @Override
    public List<InputSplit> getSplits(JobContext job) throws IOException {
        Configuration conf = job.getConfiguration();
        List<InputSplit> out = new ArrayList<>();
        for (FileStatus f : new DeviceInputFormat().listStatus(job)) {
            ParquetFooter footer = ParquetFooter.read(f.getPath(), conf);
            FileSystem fs = f.getPath().getFileSystem(conf);
            List<BlockMetaData> groups = footer.rowGroups();
            for (int g = 0; g < groups.size(); g++) {
                BlockMetaData b = groups.get(g);
                Set<String> hosts = new LinkedHashSet<>();
                for (BlockLocation l : fs.getFileBlockLocations(f, b.getStartingPos(),
                        b.getCompressedSize())) {
                    hosts.addAll(List.of(l.getHosts()));
                }
                out.add(new RowGroupSplit(f.getPath(), b.getStartingPos(),
                        b.getCompressedSize(), hosts.toArray(new String[0]), g));
            }
        }
        return out;
    }

    @Override
    public RecordReader<LongPairWritable, Writable> createRecordReader(InputSplit split,
                                                                     TaskAttemptContext ctx) {
        return new Reader();
    }

    /** A row group's parquet-scan run in the drive, its result as pairs. */
    static final class Reader extends RecordReader<LongPairWritable, Writable> {
        private final List<Object[]> pairs = new ArrayList<>();
        private Iterator<Object[]> it;
        private Object[] current;

        @Override
        public void initialize(InputSplit s, TaskAttemptContext ctx) throws IOException {
            RowGroupSplit split = (RowGroupSplit) s;
            Configuration conf = ctx.getConfiguration();
            ParquetQuery q = ParquetQuery.load(conf);
            if (q == null) {
                throw new IOException("no Parquet query in the job: DeviceJob.setParquetScan");
            }
            ParquetFooter footer = ParquetFooter.read(split.getPath(), conf);
            ParquetScanPlan plan = q.plan(footer);
            List<BlockMetaData> group = List.of(footer.rowGroups().get(split.rowGroup()));
            int budget = plan.memoryBudget(group)
                    + (q.mode() == ParquetScanPlan.Mode.AGGREGATE ? 1 << 20 : 0);
            ParquetDriveScan.Result r = ParquetDriveScan.run(
                    DeviceAccess.of(split.getPath(), conf), plan, footer, group,
                    q.limit(), budget, DeviceJob.taskletTimeout(conf));
            ctx.getCounter(DeviceCounters.TASKLET_RUNS).increment(r.runs());
            ctx.getCounter(DeviceCounters.RECORDS_SCANNED).increment(r.rowsDecoded());
            if (q.mode() == ParquetScanPlan.Mode.AGGREGATE) {
                for (byte[] o : r.outputs()) {
                    for (GroupAggregate.Item i : GroupAggregate.decode(o,
                            BuiltinTasklet.PARQUET_SCAN).items()) {
                        pairs.add(new Object[] {new LongPairWritable(i.key1(), i.key2()),
                                AggregateWritable.of(i, q.ops(), true)});
                    }
                }
            } else {
                long n = 0;
                for (Object[] row : r.rows()) {
                    pairs.add(new Object[] {new LongPairWritable(split.getStart(), n++),
                            new Text(text(plan, row))});
                }
            }
            it = pairs.iterator();
        }

        private static String text(ParquetScanPlan plan, Object[] row) {
            int[] proj = plan.projection();
            StringBuilder s = new StringBuilder();
            for (int j = 0; j < row.length; j++) {
                if (j > 0) {
                    s.append('\t');
                }
                DriveColumn c = plan.columns().get(proj[j]);
                Object v = row[j];
                if (v == null) {
                    s.append("\\N");
                } else if (v instanceof byte[] b) {
                    s.append(new String(b, StandardCharsets.UTF_8));
                } else if (c.logical() == DriveColumn.L_DECIMAL) {
                    s.append(BigDecimal.valueOf((Long) v, c.scale()).toPlainString());
                } else {
                    s.append(v);
                }
            }
            return s.toString();
        }

        @Override
        public boolean nextKeyValue() {
            if (!it.hasNext()) {
                current = null;
                return false;
            }
            current = it.next();
            return true;
        }

        @Override
        public LongPairWritable getCurrentKey() {
            return (LongPairWritable) current[0];
        }

        @Override
        public Writable getCurrentValue() {
            return (Writable) current[1];
        }

        @Override
        public float getProgress() {
            return it == null || it.hasNext() ? 0f : 1f;
        }

        @Override
        public void close() {
            pairs.clear();
        }
    }
}
