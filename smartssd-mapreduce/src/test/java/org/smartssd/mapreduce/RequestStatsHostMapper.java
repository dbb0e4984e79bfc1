package org.smartssd.mapreduce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Mapper;
import org.smartssd.device.tasklet.GroupAggregate.Op;

/**
 * The host version of {@link PlacedJobTest}'s tasklet (COUNT, SUM, MIN, MAX of the value by
 * region over {@link Requests}): combines in memory per split and emits what
 * {@link AggregateFormat} emits for the drive's groups, so {@link AggregateReducer} merges
 * both sides' outputs.
 */
public class RequestStatsHostMapper
        extends Mapper<LongWritable, BytesWritable, LongPairWritable, AggregateWritable> {
    static final int OPS = Op.COUNT.bit() | Op.SUM.bit() | Op.MIN.bit() | Op.MAX.bit();

    private final Map<Long, long[]> groups = new TreeMap<>();

    @Override
    protected void map(LongWritable offset, BytesWritable record, Context ctx) {
        ByteBuffer b = ByteBuffer.wrap(record.getBytes(), 0, record.getLength());
        long region = b.getShort(4) & 0xffff;
        long value = b.getLong(8);
        long[] g = groups.computeIfAbsent(region,
                r -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
        g[0]++;
        g[1] += value;
        g[2] = Math.min(g[2], value);
        g[3] = Math.max(g[3], value);
    }

    @Override
    protected void cleanup(Context ctx) throws IOException, InterruptedException {
        for (Map.Entry<Long, long[]> e : groups.entrySet()) {
            long[] g = e.getValue();
            ctx.write(new LongPairWritable(e.getKey(), 0),
                    new AggregateWritable(OPS, true, g[0], g[1], g[2], g[3]));
        }
    }
}
