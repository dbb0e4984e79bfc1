package org.smartssd.mapreduce;

import java.io.IOException;

import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.map.WrappedMapper;
import org.apache.hadoop.mapreduce.task.MapContextImpl;

/**
 * A map context of its own for the job's host mapper inside a device job's map task (over a
 * cached split's records the drive could not do, or a drained split on the host), as Hadoop's
 * {@code MultithreadedMapper} gives each of its threads one: its own reader and split, the
 * task's output, counters and status. Writes and counter lookups go one at a time, locked on
 * the task's context, since a drain runs a host mapper beside the drive's outputs.
 */
final class SubMapContext {
    private SubMapContext() {
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    static Mapper.Context of(Mapper.Context task, RecordReader reader, InputSplit split) {
        RecordWriter writer = new RecordWriter() {
            @Override
            public void write(Object key, Object value) throws IOException, InterruptedException {
                synchronized (task) {
                    task.write(key, value);
                }
            }

            @Override
            public void close(TaskAttemptContext c) {
            }
        };
        StatusReporter reporter = new StatusReporter() {
            @Override
            public Counter getCounter(Enum<?> name) {
                synchronized (task) {
                    return task.getCounter(name);
                }
            }

            @Override
            public Counter getCounter(String group, String name) {
                synchronized (task) {
                    return task.getCounter(group, name);
                }
            }

            @Override
            public void progress() {
                task.progress();
            }

            @Override
            public float getProgress() {
                try {
                    return reader.getProgress();
                } catch (IOException | InterruptedException e) {
                    return 0f;
                }
            }

            @Override
            public void setStatus(String status) {
                task.setStatus(status);
            }
        };
        MapContextImpl mc = new MapContextImpl(task.getConfiguration(), task.getTaskAttemptID(),
                reader, writer, task.getOutputCommitter(), reporter, split);
        return new WrappedMapper().getMapContext(mc);
    }
}
