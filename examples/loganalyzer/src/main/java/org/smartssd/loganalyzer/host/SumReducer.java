package org.smartssd.loganalyzer.host;

import java.io.IOException;

import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Reducer;

/** Q1's reduce: the region's counts summed. */
public final class SumReducer
        extends Reducer<IntWritable, LongWritable, IntWritable, LongWritable> {
    @Override
    protected void reduce(IntWritable region, Iterable<LongWritable> counts, Context ctx)
            throws IOException, InterruptedException {
        long sum = 0;
        for (LongWritable c : counts) {
            sum += c.get();
        }
        ctx.write(region, new LongWritable(sum));
    }
}
