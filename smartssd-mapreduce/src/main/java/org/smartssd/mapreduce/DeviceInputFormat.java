package org.smartssd.mapreduce;

import java.io.IOException;
import java.util.List;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.smartssd.device.TaskletProgress;
import org.smartssd.fs.SmartSsdFileSystem;

/**
 * Splits of {@code smartssd://} files for device jobs. Hadoop's own {@link FileInputFormat}
 * computes them: the file system's block locations (slices of the file on its drive, naming
 * the host that holds the drive, so the scheduler places each map next to its drive) cut by
 * the usual {@code mapreduce.input.fileinputformat.split.minsize/maxsize}. Split bounds need
 * not fall on record or page bounds: the drive gives each record to the split holding its
 * first byte. The reader runs the job's tasklet over its split ({@link TaskletRunReader}).
 */
public class DeviceInputFormat extends FileInputFormat<TaskletProgress, TaskletRun> {
    @Override
    public RecordReader<TaskletProgress, TaskletRun> createRecordReader(InputSplit split,
            TaskAttemptContext context) {
        return new TaskletRunReader();
    }

    @Override
    protected boolean isSplitable(JobContext context, Path file) {
        return true;
    }

    /** Refuses inputs that are not on a Smart SSD, naming them, before any task starts. */
    @Override
    protected List<FileStatus> listStatus(JobContext job) throws IOException {
        List<FileStatus> files = super.listStatus(job);
        for (FileStatus f : files) {
            if (!(f.getPath().getFileSystem(job.getConfiguration())
                    instanceof SmartSsdFileSystem)) {
                throw new IOException("device job input " + f.getPath() + " is not on a Smart "
                        + "SSD: a device job reads smartssd://NAME/... files");
            }
        }
        return files;
    }
}
