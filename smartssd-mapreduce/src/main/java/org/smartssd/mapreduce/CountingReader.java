package org.smartssd.mapreduce;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/** A host split's records, counted. */
final class CountingReader
        extends RecordReader<LongWritable, BytesWritable> {
    private final RecordReader<LongWritable, BytesWritable> in;
    final AtomicLong records = new AtomicLong();

    CountingReader(RecordReader<LongWritable, BytesWritable> in) {
        this.in = in;
    }

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context)
            throws IOException, InterruptedException {
        in.initialize(split, context);
    }

    @Override
    public boolean nextKeyValue() throws IOException, InterruptedException {
        boolean more = in.nextKeyValue();
        if (more) {
            records.incrementAndGet();
        }
        return more;
    }

    @Override
    public LongWritable getCurrentKey() throws IOException, InterruptedException {
        return in.getCurrentKey();
    }

    @Override
    public BytesWritable getCurrentValue() throws IOException, InterruptedException {
        return in.getCurrentValue();
    }

    @Override
    public float getProgress() throws IOException, InterruptedException {
        return in.getProgress();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
