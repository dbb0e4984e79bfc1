package org.smartssd.loganalyzer.host;

import java.io.IOException;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Mapper;

/** Q1, host-normal: (region, 1) for every entry. */
public final class RegionMapper
        extends Mapper<LongWritable, BytesWritable, IntWritable, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final IntWritable region = new IntWritable();

    @Override
    protected void map(LongWritable offset, BytesWritable entry, Context ctx)
            throws IOException, InterruptedException {
        region.set(Entries.region(entry));
        ctx.write(region, ONE);
    }
}
