package org.smartssd.mapreduce;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.LongSupplier;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.apache.hadoop.util.ReflectionUtils;
import org.smartssd.scan.Placement;
import org.smartssd.scan.PlacementCalibration;

/**
 * Runs a split placed on the host: the job's host mapper (the map's host version, e.g. the
 * log analyzer's in-mapper combining mapper) over the split's records, which the task's reader
 * ({@link DeviceInputFormat}) reads through {@code smartssd://}. Its outputs go to the same
 * shuffle as the device format's, so they must be of the same classes. Counts the split in
 * {@link PlacementCounters}: the estimate, the modelled time of the bytes read and the host's
 * rate, and the measured thread CPU time.
 */
final class HostSplitRunner {
    private HostSplitRunner() {
    }

    @SuppressWarnings("rawtypes")
    static void run(Mapper.Context context, PlacedSplit split)
            throws IOException, InterruptedException {
        Counter in = context.getCounter(TaskCounter.MAP_INPUT_RECORDS);
        long records0 = in.getValue();
        run(context, context, split, () -> in.getValue() - records0);
    }

    /**
     * The host mapper over {@code records}, a map context whose reader reads {@code split},
     * counted in {@code counters}; {@code recordsRead} says how many records it read.
     * Returns the split's modelled host time.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static long run(TaskInputOutputContext<?, ?, ?, ?> counters, Mapper.Context records,
                    PlacedSplit split, LongSupplier recordsRead)
            throws IOException, InterruptedException {
        Configuration conf = counters.getConfiguration();
        Class<? extends Mapper> cls = conf.getClass(Placement.HOST_MAPPER_CLASS, null,
                Mapper.class);
        if (cls == null) {
            throw new IOException("split " + split + " is placed on the host but "
                    + Placement.HOST_MAPPER_CLASS + " is not set");
        }
        PlacementCalibration c = PlacementCalibration.load(conf,
                split.getPath().toUri().getAuthority());
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long cpu0 = mx.getCurrentThreadCpuTime();
        records.setStatus("host: " + cls.getSimpleName() + " over " + split.getLength()
                + " bytes");
        ReflectionUtils.newInstance(cls, conf).run(records);
        long cpu = mx.getCurrentThreadCpuTime() - cpu0;
        long n = recordsRead.getAsLong();
        long bytes = n * c.recordSize();
        long modelled = c.hostNs(bytes, n);
        counters.getCounter(PlacementCounters.SPLITS_ON_HOST).increment(1);
        counters.getCounter(PlacementCounters.ESTIMATED_HOST_NS)
                .increment(split.hostEstimateNs());
        counters.getCounter(PlacementCounters.MODELLED_HOST_NS).increment(modelled);
        counters.getCounter(PlacementCounters.HOST_BYTES_READ).increment(bytes);
        counters.getCounter(PlacementCounters.HOST_RECORDS).increment(n);
        counters.getCounter(PlacementCounters.HOST_CPU_NS).increment(Math.max(0, cpu));
        return modelled;
    }
}
