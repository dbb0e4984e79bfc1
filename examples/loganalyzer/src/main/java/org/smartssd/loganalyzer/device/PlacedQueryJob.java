package org.smartssd.loganalyzer.device;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.mapreduce.Counters;
import org.smartssd.loganalyzer.Answer;
import org.smartssd.loganalyzer.Mode;
import org.smartssd.loganalyzer.Query;
import org.smartssd.loganalyzer.TraceReader;
import org.smartssd.loganalyzer.host.HostJob;
import org.smartssd.loganalyzer.model.HostCostModel;
import org.smartssd.mapreduce.DeviceJob;
import org.smartssd.scan.Placement;

/**
 * Q1 or Q2 as one {@link DeviceJob} whose splits run where {@link Placement} puts them: in the
 * drive (the device version's group-aggregate tasklet, {@link DeviceQueryJob#tasklet}) or on
 * the host (host-optimized's in-mapper combining mapper). Both sides emit the host versions'
 * map outputs ({@link HostTypedFormats}) into the host versions' reduce, so the answer is
 * the same wherever each split ran.
 *
 * <p>The host's rate is taken from {@link HostCostModel} (its I/O path per byte and the
 * query's map function per record), not measured, unless the configuration already sets
 * {@value Placement#HOST_NS_PER_BYTE}: the drive here is modelled on Kang's hardware, so the
 * host it is weighed against is Kang's modelled host, not this machine's wall clock, and the
 * plan is the same on every run.
 */
public final class PlacedQueryJob {
    /**
     * What the job answered, its counters (DeviceCounters, PlacementCounters), and the job's
     * configuration after planning (the planner's {@code smartssd.job.placement.calibrated.*}).
     */
    public record Result(Answer answer, Counters counters, Configuration jobConf) {
    }

    private PlacedQueryJob() {
    }

    /**
     * Runs the query over {@code input} (a {@code smartssd://} file) with the placement.
     *
     * @param outputDir where the reduce writes; must not exist
     */
    public static Result run(Configuration conf, Query q, Placement placement, Path input,
                             int entrySize, Path outputDir)
            throws IOException, InterruptedException {
        TraceReader.checkEntrySize(entrySize);
        Configuration c = new Configuration(conf);
        if (c.get(Placement.HOST_NS_PER_BYTE) == null) {
            c.setDouble(Placement.HOST_NS_PER_BYTE, HostCostModel.IO_NS_PER_BYTE);
            c.setDouble(Placement.HOST_NS_PER_RECORD, HostCostModel.nsPerRecord(q));
        }
        DeviceJob job = DeviceJob.getInstance(c, "loganalyzer " + q.cliName() + " placement "
                + placement.cliName());
        job.setJarByClass(PlacedQueryJob.class);
        job.setDeviceMapper(DeviceQueryJob.tasklet(q, entrySize));
        job.setPlacement(placement);
        job.setDeviceMapperFormat(q == Query.Q1 ? HostTypedFormats.Q1.class
                : HostTypedFormats.Q2.class);
        job.setHostMapper(HostJob.mapper(q, Mode.HOST_OPTIMIZED));
        job.setReducerClass(HostJob.reducer(q));
        job.setOutputValueClass(HostJob.valueClass(q));
        job.setOutputKeyClass(IntWritable.class);
        DeviceQueryJob.complete(job, input, outputDir);
        return new Result(HostJob.readAnswer(job.getConfiguration(), q, outputDir),
                job.getCounters(), job.getConfiguration());
    }
}
