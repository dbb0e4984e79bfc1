package org.smartssd.loganalyzer.host;

import java.io.IOException;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Mapper;

/** Q2, host-normal: (region, (type, 1)) for every entry. */
public final class RegionTypeMapper
        extends Mapper<LongWritable, BytesWritable, IntWritable, TypeCountWritable> {
    private final IntWritable region = new IntWritable();
    private final TypeCountWritable one = new TypeCountWritable();

    @Override
    protected void map(LongWritable offset, BytesWritable entry, Context ctx)
            throws IOException, InterruptedException {
        region.set(Entries.region(entry));
        ctx.write(region, one.set(Entries.type(entry), 1));
    }
}
