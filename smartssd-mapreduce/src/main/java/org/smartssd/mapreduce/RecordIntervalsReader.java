package org.smartssd.mapreduce;

import java.io.IOException;
import java.util.List;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/** Records [a, b) of each interval (record indexes) of a file, as FixedLengthRecordReader
 *  gives them (the byte offset and the record): the host's part of a scan through the
 *  cache. */
final class RecordIntervalsReader extends RecordReader<LongWritable, BytesWritable> {
    private final FSDataInputStream in;
    private final int rec;
    private final List<long[]> intervals;
    private final long total;
    private final LongWritable key = new LongWritable();
    private final BytesWritable value;
    private int interval;
    private long next = -1;
    private long done;

    RecordIntervalsReader(FSDataInputStream in, int rec, List<long[]> intervals, long total) {
        this.in = in;
        this.rec = rec;
        this.intervals = intervals;
        this.total = total;
        this.value = new BytesWritable(new byte[rec]);
    }

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) {
    }

    @Override
    public boolean nextKeyValue() throws IOException {
        while (interval < intervals.size() && (next < 0 || next >= intervals.get(interval)[1])) {
            if (next >= 0) {
                interval++;
                next = -1;
                continue;
            }
            next = intervals.get(interval)[0];
            in.seek(next * rec);
        }
        if (interval >= intervals.size()) {
            return false;
        }
        in.readFully(value.getBytes(), 0, rec);
        key.set(next * rec);
        next++;
        done++;
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
        return total == 0 ? 1f : (float) done / total;
    }

    @Override
    public void close() {
    }
}
