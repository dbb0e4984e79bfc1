package org.smartssd.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthRecordReader;
import org.smartssd.fs.DriveLog;
import org.smartssd.scan.DeviceAccess;
import org.smartssd.scan.DriveQueue;
import org.smartssd.scan.Placement;
import org.smartssd.scan.PlacementCalibration;
import org.smartssd.scan.SplitDrain;
import org.smartssd.scan.SplitPlanner;
import org.smartssd.scan.TaskletRun;

/**
 * The map task of a {@link DrainSplit}: its drives and its host drain the node's splits
 * ({@link SplitDrain}). A split on a drive runs as {@link DeviceMapRunner} runs one (the
 * tasklet, then the job's format); a split on the host as {@link HostSplitRunner} runs one
 * (the host mapper over the split's records, in a map context of its own,
 * {@link SubMapContext}). Both sides' outputs go to the task's one output, one write at a
 * time. Counts each split in the {@link PlacementCounters} as a
 * planned split is counted, and the rounds in {@link PlacementCounters#DRAIN_ROUNDS}.
 */
final class DrainRunner {

    private DrainRunner() {
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    static void run(Mapper.Context context, DrainSplit drain)
            throws IOException, InterruptedException {
        Configuration conf = context.getConfiguration();
        List<PlacedSplit> parts = drain.splits();
        String node = drain.getLocations().length > 0 ? drain.getLocations()[0] : "";
        List<SplitPlanner.Estimate> est = new ArrayList<>();
        Map<String, Long> queues = new LinkedHashMap<>();
        for (PlacedSplit p : parts) {
            String drive = p.getPath().toUri().getAuthority();
            est.add(new SplitPlanner.Estimate(drive, node, p.deviceEstimateNs(),
                    p.hostEstimateNs(), p.getLength()));
            if (!queues.containsKey(drive)) {
                queues.put(drive, DriveQueue.pending(drive,
                        DeviceAccess.fileSystem(p.getPath(), conf).device()).ns());
            }
        }
        AtomicLong records = new AtomicLong();
        SplitDrain.Outcome o = SplitDrain.run(est, queues, (i, side) -> {
            PlacedSplit p = parts.get(i);
            if (p.getLength() == 0) {
                return 0;
            }
            if (side == Placement.DEVICE) {
                return device(context, p, records);
            }
            return host(context, p, records);
        });
        context.getCounter(TaskCounter.MAP_INPUT_RECORDS).setValue(records.get());
        context.getCounter(PlacementCounters.DRAIN_ROUNDS).increment(o.rounds());
        int moved = 0;
        for (int i = 0; i < parts.size(); i++) {
            if (o.sides().get(i) != parts.get(i).side()) {
                moved++;
            }
        }
        context.getCounter(PlacementCounters.SPLITS_MOVED_BY_DRAIN).increment(moved);
        DriveLog.of(DrainRunner.class, String.join(",", queues.keySet())).info(
                "drained {} splits on {} in {} rounds: sides {} ({} moved from the plan); "
                + "modelled clocks at the end: drives {}, host {}", parts.size(),
                node.isEmpty() ? "this node" : node, o.rounds(), o.sides(), moved,
                o.deviceClock(), o.hostClock());
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static long device(Mapper.Context context, PlacedSplit p, AtomicLong records) throws IOException, InterruptedException {
        TaskletRunReader reader = new TaskletRunReader();
        try {
            reader.initialize(p, context);
            TaskletRun run = null;
            while (reader.nextKeyValue()) {
                run = reader.getCurrentValue();
            }
            if (run == null) {
                return 0;
            }
            long ns = DeviceMapRunner.output(context, p, run, (k, v) -> {
                synchronized (context) {   // as SubMapContext's writes
                    context.write(k, v);
                }
            });
            records.addAndGet(run.last().records());
            return ns;
        } finally {
            reader.close();
        }
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static long host(Mapper.Context context, PlacedSplit p, AtomicLong records) throws IOException, InterruptedException {
        PlacementCalibration c = PlacementCalibration.load(context.getConfiguration(),
                p.getPath().toUri().getAuthority());
        CountingReader reader = new CountingReader(new FixedLengthRecordReader(c.recordSize()));
        Mapper.Context sub = SubMapContext.of(context, reader, p);
        try {
            reader.initialize(p, sub);
            long ns = HostSplitRunner.run(context, sub, p, reader.records::get);
            records.addAndGet(reader.records.get());
            return ns;
        } finally {
            reader.close();
        }
    }

    /** A host split's records, counted. */
    private static final class CountingReader
            extends RecordReader<LongWritable, BytesWritable> {
        private final RecordReader<LongWritable, BytesWritable> in;
        final AtomicLong records = new AtomicLong();

        CountingReader(RecordReader<LongWritable, BytesWritable> in) {
            this.in = in;
        }

        @Override
        public void initialize(InputSplit split, TaskAttemptContext context)
                throws IOException, InterruptedException {
            in.initialize(split, context);
        }

        @Override
        public boolean nextKeyValue() throws IOException, InterruptedException {
            boolean more = in.nextKeyValue();
            if (more) {
                records.incrementAndGet();
            }
            return more;
        }

        @Override
        public LongWritable getCurrentKey() throws IOException, InterruptedException {
            return in.getCurrentKey();
        }

        @Override
        public BytesWritable getCurrentValue() throws IOException, InterruptedException {
            return in.getCurrentValue();
        }

        @Override
        public float getProgress() throws IOException, InterruptedException {
            return in.getProgress();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
