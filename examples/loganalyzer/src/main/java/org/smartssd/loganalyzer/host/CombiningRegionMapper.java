package org.smartssd.loganalyzer.host;

import java.io.IOException;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Mapper;
import org.smartssd.loganalyzer.Region;

/**
 * Q1, host-optimized: counts per region in memory (Kang's "intermediate results sorted and
 * compacted only in in-memory data structures", [Kang 2014, §6.5.3.1]) and emits one output
 * per region when the split is done.
 */
public final class CombiningRegionMapper
        extends Mapper<LongWritable, BytesWritable, IntWritable, LongWritable> {
    private final long[] counts = new long[Region.CODES];

    @Override
    protected void map(LongWritable offset, BytesWritable entry, Context ctx) throws IOException {
        counts[Entries.region(entry)]++;
    }

    @Override
    protected void cleanup(Context ctx) throws IOException, InterruptedException {
        for (int r = 0; r < counts.length; r++) {
            if (counts[r] > 0) {
                ctx.write(new IntWritable(r), new LongWritable(counts[r]));
            }
        }
    }
}
