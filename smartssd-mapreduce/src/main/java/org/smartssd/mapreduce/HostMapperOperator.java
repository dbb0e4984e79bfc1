package org.smartssd.mapreduce;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.map.WrappedMapper;
import org.apache.hadoop.mapreduce.task.MapContextImpl;
import org.apache.hadoop.util.ReflectionUtils;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.TaskletSpec;
import org.smartssd.scan.Placement;
import org.smartssd.scan.PlacementCalibration;

/**
 * A device job's host mapper as the planner's host version ({@link PlacementCalibration}):
 * the mapper over a calibration sample's fixed-size records, as Hadoop's
 * FixedLengthRecordReader hands them out, its output discarded.
 */
final class HostMapperOperator {
    private HostMapperOperator() {
    }

    /** A device job's host mapper as the host version (null: none), after checking that
     *  the tasklet reads fixed-size records, which is what the mapper is given. */
    @SuppressWarnings("rawtypes")
    static PlacementCalibration.HostOperator of(Configuration conf, TaskletSpec spec,
                                   Class<? extends Mapper> hostMapper) throws IOException {
        RecordLayout layout = spec.layout();
        if (layout == null || layout.kind() != RecordLayout.Kind.FIXED) {
            throw new IOException(Placement.KEY + ": the host version reads fixed-size records; "
                    + "tasklet " + spec.taskletId() + " has layout " + layout);
        }
        int rec = layout.recordSize();
        return hostMapper == null ? null : new PlacementCalibration.HostOperator() {
            @Override
            public String name() {
                return hostMapper.getName() + "/" + rec;
            }

            @Override
            public void run(byte[] sample) throws IOException, InterruptedException {
                runMapper(conf, hostMapper, sample, rec);
            }
        };
    }


    /** A host mapper over the sample's records, its output discarded. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void runMapper(Configuration conf, Class<? extends Mapper> cls, byte[] sample,
                                  int rec) throws IOException, InterruptedException {
        Mapper m = ReflectionUtils.newInstance(cls, conf);
        MapContextImpl mc = new MapContextImpl(conf, new TaskAttemptID(),
                new SampleReader(sample, rec), new Discard(), null, new Reporter(), null);
        m.run(new WrappedMapper().getMapContext(mc));
    }

    /** Records of a sample in memory, as FixedLengthRecordReader hands them out. */
    private static final class SampleReader extends RecordReader<LongWritable, BytesWritable> {
        private final byte[] data;
        private final int rec;
        private int at = -1;
        private final LongWritable key = new LongWritable();
        private final BytesWritable value = new BytesWritable();

        SampleReader(byte[] data, int rec) {
            this.data = data;
            this.rec = rec;
        }

        @Override
        public void initialize(InputSplit split, TaskAttemptContext context) {
        }

        @Override
        public boolean nextKeyValue() {
            at = at < 0 ? 0 : at + rec;
            if (at + rec > data.length) {
                return false;
            }
            key.set(at);
            value.set(data, at, rec);
            return true;
        }

        @Override
        public LongWritable getCurrentKey() {
            return key;
        }

        @Override
        public BytesWritable getCurrentValue() {
            return value;
        }

        @Override
        public float getProgress() {
            return data.length == 0 ? 1f : Math.min(1f, at / (float) data.length);
        }

        @Override
        public void close() {
        }
    }

    private static final class Discard extends RecordWriter<Object, Object> {
        @Override
        public void write(Object key, Object value) {
        }

        @Override
        public void close(TaskAttemptContext context) {
        }
    }

    private static final class Reporter extends StatusReporter {
        private final Counters counters = new Counters();

        @Override
        public Counter getCounter(Enum<?> name) {
            return counters.findCounter(name);
        }

        @Override
        public Counter getCounter(String group, String name) {
            return counters.findCounter(group, name);
        }

        @Override
        public void progress() {
        }

        @Override
        public float getProgress() {
            return 0;
        }

        @Override
        public void setStatus(String status) {
        }
    }
}
