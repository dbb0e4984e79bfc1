package org.smartssd.loganalyzer.host;

import java.io.IOException;

import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.mapreduce.Reducer;
import org.smartssd.loganalyzer.FileType;
import org.smartssd.loganalyzer.TopTypes;
import org.smartssd.loganalyzer.TypeCount;

/** Q2's reduce: the region's type counts summed and ranked; the top types, best first. */
public final class TopTypesReducer
        extends Reducer<IntWritable, TypeCountWritable, IntWritable, TypeCountWritable> {
    @Override
    protected void reduce(IntWritable region, Iterable<TypeCountWritable> values, Context ctx)
            throws IOException, InterruptedException {
        long[] counts = new long[FileType.CODES];
        for (TypeCountWritable v : values) {
            counts[v.type()] += v.count();
        }
        for (TypeCount tc : TopTypes.of(counts)) {
            ctx.write(region, new TypeCountWritable(tc.type(), tc.count()));
        }
    }
}
