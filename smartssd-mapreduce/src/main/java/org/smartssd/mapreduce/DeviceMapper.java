package org.smartssd.mapreduce;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.smartssd.device.TaskletSpec;

/**
 * The map side of a device job (Kang §6.4.2): one tasklet, with its static parameters and
 * record layout, run by the drive over each split. The framework creates the output object
 * and the instance, runs it over the split's byte range and hands the output to the job's
 * {@link DeviceMapperFormat}.
 *
 * <p>Most jobs need no subclass: {@link DeviceJob#setDeviceMapper(TaskletSpec)} stores a
 * fixed spec. Subclass (with a public no-argument constructor) to compute the spec in the
 * task from the job configuration; set it with {@link DeviceJob#setDeviceMapperClass}.
 */
public abstract class DeviceMapper {
    /**
     * The tasklet every split of the job runs. Called once per map task, in the task.
     *
     * @throws IOException when the configuration does not describe a tasklet
     */
    public abstract TaskletSpec tasklet(Configuration conf) throws IOException;

    /** The mapper of {@link DeviceJob#setDeviceMapper(TaskletSpec)}: the spec in the job. */
    public static final class Configured extends DeviceMapper {
        @Override
        public TaskletSpec tasklet(Configuration conf) throws IOException {
            TaskletSpec spec = TaskletSpecs.load(conf, DeviceJob.TASKLET_PREFIX);
            if (spec == null) {
                throw new IOException("no tasklet in the job configuration ("
                        + DeviceJob.TASKLET_PREFIX + ".*): call DeviceJob.setDeviceMapper");
            }
            return spec;
        }
    }
}
