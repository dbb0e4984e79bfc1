package org.smartssd.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
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
import org.smartssd.fs.DriveLog;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.scan.DeviceAccess;
import org.smartssd.scan.parquet.DriveColumn;
import org.smartssd.scan.parquet.ParquetDriveScan;
import org.smartssd.scan.parquet.ParquetFooter;
import org.smartssd.scan.parquet.ParquetHostScan;
import org.smartssd.scan.parquet.ParquetScanPlan;
import org.smartssd.scan.parquet.TreeStatistics;

/**
 * The input of a device job over Parquet files ({@link DeviceJob#setParquetScan}): splits of
 * consecutive row groups up to Hadoop's split size, naming their blocks' hosts, whose reader
 * runs the job's {@link ParquetQuery} over them in the drive, as few parquet-scan runs as the
 * plan's size allows, and gives the result. AGGREGATE: (key1, key2) →
 * {@link AggregateWritable}, partial per run, merged exactly by {@link AggregateReducer}.
 * ROWS: (split's first byte, row in it) → the projected values as text, tab-separated
 * ({@code \N} for NULL; DECIMAL with its scale, DATE as days, TIMESTAMP as microseconds,
 * FLOAT/DOUBLE as Java prints them).
 */
public class ParquetRowGroupInputFormat extends FileInputFormat<LongPairWritable, Writable> {
    private static final org.slf4j.Logger LOG =
            org.slf4j.LoggerFactory.getLogger(ParquetRowGroupInputFormat.class);

    /** Consecutive row groups of a file: the bytes from the first's start to the last's
     *  end, the first's index in the footer and how many. */
    public static class RowGroupSplit extends FileSplit {
        private int rowGroup;
        private int rowGroups;

        public RowGroupSplit() {
        }

        RowGroupSplit(Path file, long start, long length, String[] hosts, int rowGroup,
                      int rowGroups) {
            super(file, start, length, hosts);
            this.rowGroup = rowGroup;
            this.rowGroups = rowGroups;
        }

        /** The first row group's index in the file's footer. */
        public int rowGroup() {
            return rowGroup;
        }

        public int rowGroups() {
            return rowGroups;
        }

        @Override
        public void write(DataOutput out) throws IOException {
            super.write(out);
            out.writeInt(rowGroup);
            out.writeInt(rowGroups);
        }

        @Override
        public void readFields(DataInput in) throws IOException {
            super.readFields(in);
            rowGroup = in.readInt();
            rowGroups = in.readInt();
        }
    }

    @Override
    protected boolean isSplitable(JobContext context, Path filename) {
        return false;
    }

    /**
     * Per file, the row groups whose statistics do not rule the WHERE tree out
     * ({@link TreeStatistics}), in runs of consecutive ones of at most the split size Hadoop
     * gives the file ({@code computeSplitSize} of its block size and the job's min and max
     * split sizes), each at least one row group; in file order, each naming the hosts of its
     * row groups' blocks.
     */
    @Override
    public List<InputSplit> getSplits(JobContext job) throws IOException {
        Configuration conf = job.getConfiguration();
        long minSize = Math.max(getFormatMinSplitSize(), getMinSplitSize(job));
        long maxSize = getMaxSplitSize(job);
        ParquetQuery q = ParquetQuery.load(conf);
        if (q == null) {
            throw new IOException("no Parquet query in the job: DeviceJob.setParquetScan");
        }
        List<InputSplit> out = new ArrayList<>();
        for (FileStatus f : new DeviceInputFormat().listStatus(job)) {
            ParquetFooter footer = ParquetFooter.read(f.getPath(), conf);
            FileSystem fs = f.getPath().getFileSystem(conf);
            long splitSize = computeSplitSize(f.getBlockSize(), minSize, maxSize);
            List<BlockMetaData> groups = footer.rowGroups();
            Set<BlockMetaData> kept = Collections.newSetFromMap(new IdentityHashMap<>());
            kept.addAll(footer.rowGroups(TreeStatistics.of(q.tree(),
                    q.plan(footer).columns())));
            if (kept.size() < groups.size()) {
                LOG.info("{}: {} of {} row groups pruned by their statistics", f.getPath(),
                        groups.size() - kept.size(), groups.size());
            }
            int first = 0;
            while (first < groups.size()) {
                if (!kept.contains(groups.get(first))) {
                    first++;
                    continue;
                }
                long start = groups.get(first).getStartingPos();
                int end = first + 1;
                while (end < groups.size() && kept.contains(groups.get(end))
                        && end(groups.get(end)) - start <= splitSize) {
                    end++;
                }
                Set<String> hosts = new LinkedHashSet<>();
                for (BlockMetaData b : groups.subList(first, end)) {
                    for (BlockLocation l : fs.getFileBlockLocations(f, b.getStartingPos(),
                            b.getCompressedSize())) {
                        hosts.addAll(List.of(l.getHosts()));
                    }
                }
                out.add(new RowGroupSplit(f.getPath(), start, end(groups.get(end - 1)) - start,
                        hosts.toArray(new String[0]), first, end - first));
                first = end;
            }
        }
        return out;
    }

    private static long end(BlockMetaData b) {
        return b.getStartingPos() + b.getCompressedSize();
    }

    @Override
    public RecordReader<LongPairWritable, Writable> createRecordReader(InputSplit split,
                                                                     TaskAttemptContext ctx) {
        return new Reader();
    }

    /**
     * Set true, every split runs on the host (parquet-mr and the host's evaluator), never in
     * the drive: the tests compare the two paths.
     */
    static final String HOST_ONLY = ParquetQuery.PREFIX + ".host-only";

    /**
     * A split's row groups in the drive, as few parquet-scan runs as the plan's size allows
     * ({@link ParquetScanPlan#runs}), each run's result as pairs. A run the drive refuses
     * ({@link ParquetDriveScan.Unsupported}: a codec, encoding or page it does not decode, a
     * row group larger than its memory) sends its row groups and the split's later ones to
     * the host ({@link ParquetHostScan}), whose answer is the drive's; any other failure
     * fails the task.
     */
    static final class Reader extends RecordReader<LongPairWritable, Writable> {
        /** The pairs of the run or host row group read last; the split's are never all held. */
        private final List<Object[]> pairs = new ArrayList<>();
        private Iterator<Object[]> it = java.util.Collections.emptyIterator();
        private Object[] current;
        private RowGroupSplit split;
        private TaskAttemptContext ctx;
        private Configuration conf;
        private ParquetQuery q;
        private ParquetFooter footer;
        private ParquetScanPlan plan;
        private boolean aggregate;
        private boolean signed;
        private List<List<BlockMetaData>> runs;
        private int nextRun;
        /** Row groups of the split read so far, in the drive or on the host. */
        private int done;
        /** ROWS: the next row's number in the split. */
        private long row;
        private DeviceAccess access;
        /** Why the rest of the split is read on the host; null while the drive runs it. */
        private String refused;
        private ParquetHostScan host;

        @Override
        public void initialize(InputSplit s, TaskAttemptContext ctx) throws IOException {
            split = (RowGroupSplit) s;
            this.ctx = ctx;
            conf = ctx.getConfiguration();
            q = ParquetQuery.load(conf);
            if (q == null) {
                throw new IOException("no Parquet query in the job: DeviceJob.setParquetScan");
            }
            footer = ParquetFooter.read(split.getPath(), conf);
            plan = q.plan(footer);
            if (split.rowGroup() + split.rowGroups() > footer.rowGroups().size()) {
                throw new IOException(split.getPath() + " has " + footer.rowGroups().size()
                        + " row groups, the split names " + split.rowGroup() + ".."
                        + (split.rowGroup() + split.rowGroups() - 1)
                        + ": the file changed since the job was planned");
            }
            aggregate = q.mode() == ParquetScanPlan.Mode.AGGREGATE;
            signed = signedValue(plan, q);
            runs = plan.runs(footer.rowGroups().subList(split.rowGroup(),
                    split.rowGroup() + split.rowGroups()));
            refused = conf.getBoolean(HOST_ONLY, false) ? HOST_ONLY + "=true" : null;
        }

        /** Reads the split's next run in the drive, or its next row group on the host;
         *  false when the split is done (or ROWS' limit reached). */
        private boolean readMore() throws IOException {
            pairs.clear();
            if (done == split.rowGroups() || (!aggregate && q.limit() > 0 && row >= q.limit())) {
                return false;
            }
            long left = aggregate || q.limit() == 0 ? 0 : q.limit() - row;
            if (refused == null) {
                List<BlockMetaData> run = runs.get(nextRun);
                if (access == null) {
                    access = DeviceAccess.of(split.getPath(), conf);
                }
                try {
                    ParquetDriveScan.Result r = ParquetDriveScan.run(access, plan, footer, run,
                            left, plan.memoryBudget(run) + (aggregate ? 1 << 20 : 0),
                            DeviceJob.taskletTimeout(conf));
                    nextRun++;
                    done += run.size();
                    DeviceJobMetrics.increment(ctx, DeviceCounters.TASKLET_RUNS, r.runs());
                    DeviceJobMetrics.increment(ctx, DeviceCounters.RECORDS_SCANNED,
                            r.rowsDecoded());
                    if (aggregate) {
                        for (byte[] o : r.outputs()) {
                            add(GroupAggregate.decode(o, BuiltinTasklet.PARQUET_SCAN).items(),
                                    q, signed);
                        }
                    } else {
                        addRows(r.rows());
                    }
                    return true;
                } catch (ParquetDriveScan.Unsupported e) {
                    refused = e.getMessage();
                }
            }
            int g = split.rowGroup() + done;
            if (host == null) {
                DriveLog.of(Reader.class, split.getPath().toUri().getAuthority()).warn(
                        "{} row groups {}-{} read on the host: {}", split.getPath(), g,
                        split.rowGroup() + split.rowGroups() - 1, refused);
                host = ParquetHostScan.open(conf, plan, footer);
            }
            ParquetHostScan.Result h = host.rowGroup(g, left);
            done++;
            DeviceJobMetrics.increment(ctx, DeviceCounters.HOST_ROW_GROUPS, 1);
            DeviceJobMetrics.increment(ctx, DeviceCounters.HOST_ROWS_READ, h.rowsRead());
            if (aggregate) {
                add(h.items(), q, signed);
            } else {
                addRows(h.rows());
            }
            return true;
        }

        private void addRows(List<Object[]> rows) {
            for (Object[] values : rows) {
                pairs.add(new Object[] {new LongPairWritable(split.getStart(), row++),
                        new Text(text(plan, values))});
            }
        }

        private void add(List<GroupAggregate.Item> items, ParquetQuery q, boolean signed) {
            for (GroupAggregate.Item i : items) {
                pairs.add(new Object[] {new LongPairWritable(i.key1(), i.key2()),
                        AggregateWritable.of(i, q.ops(), signed)});
            }
        }

        /** Whether the drive compares the aggregate's value signed (its field type's). */
        private static boolean signedValue(ParquetScanPlan plan, ParquetQuery q) {
            return q.mode() != ParquetScanPlan.Mode.AGGREGATE
                    || plan.columns().get(q.value()).fieldType().signed();
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
        public boolean nextKeyValue() throws IOException {
            while (!it.hasNext()) {
                if (!readMore()) {
                    current = null;
                    return false;
                }
                it = pairs.iterator();
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
            return split == null || split.rowGroups() == 0 ? 1f
                    : (float) done / split.rowGroups();
        }

        @Override
        public void close() throws IOException {
            pairs.clear();
            if (host != null) {
                host.close();
            }
        }
    }
}
