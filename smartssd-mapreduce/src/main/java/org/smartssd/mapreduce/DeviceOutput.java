package org.smartssd.mapreduce;

import org.apache.hadoop.fs.Path;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletSpec;

/**
 * The output object of one split's tasklet run, read back from the drive.
 *
 * @param spec     the tasklet that ran (id, layout, params)
 * @param file     the input file
 * @param start    the split's first byte in the file
 * @param length   the split's length
 * @param bytes    the whole output, trailer included
 * @param progress the drive's final report of the run
 */
public record DeviceOutput(TaskletSpec spec, Path file, long start, long length, byte[] bytes,
                           TaskletProgress progress) {
    public RecordLayout layout() {
        return spec.layout();
    }
}
