package org.smartssd.loganalyzer.host;

import java.io.IOException;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Mapper;
import org.smartssd.loganalyzer.FileType;
import org.smartssd.loganalyzer.Region;

/** Q2, host-optimized: counts per (region, type) in memory, one output per pair at the end. */
public final class CombiningRegionTypeMapper
        extends Mapper<LongWritable, BytesWritable, IntWritable, TypeCountWritable> {
    private final long[][] counts = new long[Region.CODES][FileType.CODES];

    @Override
    protected void map(LongWritable offset, BytesWritable entry, Context ctx) throws IOException {
        counts[Entries.region(entry)][Entries.type(entry)]++;
    }

    @Override
    protected void cleanup(Context ctx) throws IOException, InterruptedException {
        IntWritable region = new IntWritable();
        TypeCountWritable tc = new TypeCountWritable();
        for (int r = 0; r < counts.length; r++) {
            for (int t = 0; t < counts[r].length; t++) {
                if (counts[r][t] > 0) {
                    region.set(r);
                    ctx.write(region, tc.set(t, counts[r][t]));
                }
            }
        }
    }
}
