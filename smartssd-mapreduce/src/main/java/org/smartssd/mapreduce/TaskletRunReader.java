package org.smartssd.mapreduce;

import java.io.IOException;
import java.time.Duration;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.ReflectionUtils;
import org.smartssd.device.EnergyAccountant;
import org.smartssd.device.HostPowerProfile;
import org.smartssd.device.InputRange;
import org.smartssd.device.Rapl;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletSpec;
import org.smartssd.scan.DeviceAccess;
import org.smartssd.scan.TaskletRun;

/**
 * The map task's input: the drive's progress reports of the split's tasklet run. Each record
 * is one (coalesced) poll, so Hadoop samples {@link #getProgress()} — pages done over pages
 * total — as the run goes; the last record is the DONE report, after which the value
 * ({@link TaskletRun}) holds the output. {@link DeviceMapRunner} consumes it.
 *
 * <p>The run covers the split's byte range; the drive applies Hadoop's split rule (a record
 * belongs to the split holding its first byte). A zero-length split runs nothing.
 */
public class TaskletRunReader extends RecordReader<TaskletProgress, TaskletRun> {
    /** Longest wait for a report before the task pings the framework that it is alive. */
    private static final Duration PING = Duration.ofSeconds(1);

    private TaskAttemptContext context;
    private FileSplit split;
    private TaskletRun run;

    @Override
    public void initialize(InputSplit split, TaskAttemptContext ctx)
            throws IOException, InterruptedException {
        this.context = ctx;
        FileSplit fs = (FileSplit) split;
        this.split = fs;
        if (fs.getLength() == 0) {
            return;
        }
        Configuration conf = ctx.getConfiguration();
        DeviceMapper mapper = ReflectionUtils.newInstance(DeviceJob.getDeviceMapperClass(conf),
                conf);
        TaskletSpec spec = mapper.tasklet(conf);
        DeviceAccess target = DeviceAccess.of(fs.getPath(), conf);
        EnergyAccountant accountant = new EnergyAccountant(target.device(),
                HostPowerProfile.fromSystemProperties(), Rapl.system(), energyScope(conf));
        String out = DeviceJob.scratchDir(conf) + "/" + ctx.getTaskAttemptID() + ".out";
        try {
            run = TaskletRun.start(target.device(), spec, new InputRange(target.stat().oid(),
                    fs.getStart(), fs.getLength()), out, DeviceJob.taskletTimeout(conf),
                    accountant);
        } catch (IOException e) {
            throw new IOException(describe(fs) + ": " + e.getMessage(), e);
        }
    }

    /** One JVM per task on a cluster; on the LocalJobRunner tasks share the JVM. */
    static EnergyAccountant.Scope energyScope(Configuration conf) {
        String v = conf.getTrimmed(DeviceJob.ENERGY_SCOPE, "");
        if (!v.isEmpty()) {
            return EnergyAccountant.Scope.valueOf(v.toUpperCase(java.util.Locale.ROOT));
        }
        return "local".equals(conf.getTrimmed("mapreduce.framework.name", "local"))
                ? EnergyAccountant.Scope.THREAD : EnergyAccountant.Scope.PROCESS;
    }

    private String describe(FileSplit fs) {
        return "tasklet run over " + fs.getPath() + " [" + fs.getStart() + ", "
                + (fs.getStart() + fs.getLength()) + ")";
    }

    @Override
    public boolean nextKeyValue() throws IOException, InterruptedException {
        if (run == null) {
            return false;
        }
        for (;;) {
            if (run.finished()) {
                return false;
            }
            TaskletProgress p;
            try {
                p = run.next(PING);
            } catch (IOException e) {
                throw new IOException(describe(split) + " failed: " + e.getMessage(), e);
            }
            if (p != null) {
                return true;
            }
            context.progress();
        }
    }

    @Override
    public TaskletProgress getCurrentKey() {
        return run == null ? null : run.last();
    }

    @Override
    public TaskletRun getCurrentValue() {
        return run;
    }

    @Override
    public float getProgress() {
        return run == null ? 1f : run.fraction();
    }

    @Override
    public void close() throws IOException {
        if (run != null) {
            run.close();
        }
    }
}
