package org.smartssd.mapreduce;

import java.io.IOException;

import org.apache.hadoop.mapreduce.Reducer;

/**
 * Merges the partial aggregates of a group exactly (count and sum add, min and max fold):
 * the host reduce of group-aggregate device jobs, and a valid combiner.
 */
public class AggregateReducer
        extends Reducer<LongPairWritable, AggregateWritable, LongPairWritable, AggregateWritable> {
    private final AggregateWritable total = new AggregateWritable();

    @Override
    protected void reduce(LongPairWritable key, Iterable<AggregateWritable> values,
                          Context context) throws IOException, InterruptedException {
        boolean first = true;
        for (AggregateWritable v : values) {
            if (first) {
                total.set(v);
                first = false;
            } else {
                total.merge(v);
            }
        }
        context.write(key, total);
    }
}
