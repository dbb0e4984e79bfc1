package org.smartssd.mapreduce;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.ReflectionUtils;

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

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void run(Mapper.Context context, PlacedSplit split)
            throws IOException, InterruptedException {
        Configuration conf = context.getConfiguration();
        Class<? extends Mapper> cls = conf.getClass(Placement.HOST_MAPPER_CLASS, null,
                Mapper.class);
        if (cls == null) {
            throw new IOException("split " + split + " is placed on the host but "
                    + Placement.HOST_MAPPER_CLASS + " is not set");
        }
        PlacementCalibration c = PlacementCalibration.load(conf,
                split.getPath().toUri().getAuthority());
        long records0 = context.getCounter(TaskCounter.MAP_INPUT_RECORDS).getValue();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long cpu0 = mx.getCurrentThreadCpuTime();
        context.setStatus("host: " + cls.getSimpleName() + " over " + split.getLength()
                + " bytes");
        ReflectionUtils.newInstance(cls, conf).run(context);
        long cpu = mx.getCurrentThreadCpuTime() - cpu0;
        long records = context.getCounter(TaskCounter.MAP_INPUT_RECORDS).getValue() - records0;
        long bytes = records * c.recordSize();
        context.getCounter(PlacementCounters.SPLITS_ON_HOST).increment(1);
        context.getCounter(PlacementCounters.ESTIMATED_HOST_NS)
                .increment(split.hostEstimateNs());
        context.getCounter(PlacementCounters.MODELLED_HOST_NS)
                .increment(c.hostNs(bytes, records));
        context.getCounter(PlacementCounters.HOST_BYTES_READ).increment(bytes);
        context.getCounter(PlacementCounters.HOST_RECORDS).increment(records);
        context.getCounter(PlacementCounters.HOST_CPU_NS).increment(Math.max(0, cpu));
    }
}
