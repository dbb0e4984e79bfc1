package org.smartssd.mapreduce;

import java.io.IOException;
import java.util.Locale;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.ReflectionUtils;
import org.smartssd.device.EnergyReport;
import org.smartssd.device.TaskletProgress;
import org.smartssd.scan.Placement;
import org.smartssd.scan.PlacementCalibration;
import org.smartssd.scan.TaskletRun;

/**
 * The map task of a device job: follows the split's tasklet run (each input record is a
 * progress report of the drive; the task's status shows the pages done), then passes the
 * run's output through the job's {@link DeviceMapperFormat} to the shuffle and adds the run
 * to the {@link DeviceCounters}. The on-device map did the combine and local reduce; this
 * only converts.
 *
 * <p>MAP_INPUT_RECORDS is set to the records the drive examined (not the polls). A split
 * placed on the host ({@link Placement}) runs the job's host mapper instead
 * ({@link HostSplitRunner}); a node's splits drained at run time ({@link DrainSplit}) run
 * on both sides at once ({@link DrainRunner}).
 */
public class DeviceMapRunner<K, V> extends Mapper<TaskletProgress, TaskletRun, K, V> {
    @Override
    @SuppressWarnings("unchecked")
    public void run(Context context) throws IOException, InterruptedException {
        if (context.getInputSplit() instanceof FileSplit f
                && DeviceInputFormat.isCached(f.getPath())) {
            CachedScanRunner.run(context, f);
            return;
        }
        if (context.getInputSplit() instanceof DrainSplit d) {
            DrainRunner.run(context, d);
            return;
        }
        if (context.getInputSplit() instanceof PlacedSplit p && p.side() == Placement.HOST) {
            HostSplitRunner.run(context, p);
            return;
        }
        setup(context);
        try {
            TaskletRun run = null;
            while (context.nextKeyValue()) {
                run = context.getCurrentValue();
                context.setStatus(status(context.getCurrentKey()));
            }
            if (run == null) {
                context.setStatus("device: empty split, nothing to run");
                return;
            }
            output(context, (FileSplit) context.getInputSplit(), run, context::write);
            context.getCounter(TaskCounter.MAP_INPUT_RECORDS).setValue(run.last().records());
        } finally {
            cleanup(context);
        }
    }

    /**
     * A finished run's output through the job's format to {@code out}, the run added to the
     * {@link DeviceCounters} and, for a placed split, to the {@link PlacementCounters}.
     * Returns the run's modelled time (its counted work at the calibration's prices plus its
     * output over the link) for a placed split, 0 for another.
     */
    @SuppressWarnings("unchecked")
    static <K, V> long output(TaskInputOutputContext<?, ?, ?, ?> context, FileSplit split,
                              TaskletRun run, DeviceMapperFormat.Emitter<K, V> out)
            throws IOException, InterruptedException {
        Configuration conf = context.getConfiguration();
        TaskletProgress done = run.last();
        DeviceMapperFormat<K, V> format = ReflectionUtils.newInstance(
                (Class<DeviceMapperFormat<K, V>>) DeviceJob.getDeviceMapperFormatClass(conf),
                conf);
        format.convert(new DeviceOutput(run.spec(), split.getPath(), split.getStart(),
                split.getLength(), run.output(), done), out);
        count(context, run);
        if (!(split instanceof PlacedSplit p)) {
            return 0;
        }
        PlacementCalibration c = PlacementCalibration.load(conf,
                p.getPath().toUri().getAuthority());
        long modelled = c.deviceModelNs(done, run.output().length);
        inc(context, PlacementCounters.SPLITS_ON_DEVICE, 1);
        inc(context, PlacementCounters.ESTIMATED_DEVICE_NS, p.deviceEstimateNs());
        inc(context, PlacementCounters.MODELLED_DEVICE_NS, modelled);
        return modelled;
    }

    static String status(TaskletProgress p) {
        return String.format(Locale.ROOT, "device %s: %d/%d pages, %d records, %d output bytes",
                p.state().name().toLowerCase(Locale.ROOT), p.pagesDone(), p.pagesTotal(),
                p.records(), p.outputBytes());
    }

    private static void count(TaskInputOutputContext<?, ?, ?, ?> context, TaskletRun run) {
        TaskletProgress p = run.last();
        inc(context, DeviceCounters.TASKLET_RUNS, 1);
        inc(context, DeviceCounters.PAGES_SCANNED, p.pagesDone());
        inc(context, DeviceCounters.BYTES_SCANNED, p.pagesDone() * run.pageSize());
        inc(context, DeviceCounters.RECORDS_SCANNED, p.records());
        inc(context, DeviceCounters.OUTPUT_BYTES, run.output().length);
        inc(context, DeviceCounters.DEVICE_TIME_NS, Math.max(0, p.finishedNs() - p.startedNs()));
        inc(context, DeviceCounters.DEVICE_INSTRUCTIONS, p.instructions());
        inc(context, DeviceCounters.DEVICE_DRAM_ACCESSES, p.dramAccesses());
        inc(context, DeviceCounters.PROGRESS_POLLS, run.polls());
        EnergyReport e = run.energy();
        if (e == null) {
            inc(context, DeviceCounters.DEVICE_ENERGY_UNAVAILABLE, 1);
            inc(context, DeviceCounters.LINK_BYTES, run.output().length);
            return;
        }
        inc(context, DeviceCounters.LINK_BYTES, e.linkBytes());
        if (e.deviceModelled() && !Double.isNaN(e.deviceJoules())) {
            inc(context, DeviceCounters.DEVICE_ENERGY_UJ, Math.round(e.deviceJoules() * 1e6));
            if (run.energyShare() != null) {
                inc(context, DeviceCounters.DEVICE_ENERGY_NJ, run.energyShare().taskNj());
            }
        } else {
            inc(context, DeviceCounters.DEVICE_ENERGY_UNAVAILABLE, 1);
        }
        inc(context, DeviceCounters.HOST_ENERGY_UJ, Math.round(e.hostJoules() * 1e6));
        if (e.hostMeasured()) {
            inc(context, DeviceCounters.HOST_ENERGY_MEASURED, 1);
        }
    }

    private static void inc(TaskInputOutputContext<?, ?, ?, ?> context, Enum<?> c, long v) {
        context.getCounter(c).increment(v);
    }
}
