package org.smartssd.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.mapreduce.Reducer;

/**
 * Keeps, per group, the n best ranked records of all splits, ties to the earlier split and
 * item (the exact top n, as one drive run would give): the host reduce of top-N device
 * jobs, and a valid combiner. Writes them best first.
 */
public class TopNReducer
        extends Reducer<LongPairWritable, RankedWritable, LongPairWritable, RankedWritable> {
    @Override
    protected void reduce(LongPairWritable key, Iterable<RankedWritable> values, Context context)
            throws IOException, InterruptedException {
        List<RankedWritable> all = new ArrayList<>();
        for (RankedWritable v : values) {
            all.add(v.copy()); // Hadoop reuses the value object
        }
        RankedWritable any = all.get(0);
        all.sort(RankedWritable.ranking(any.smallest(), any.signed()));
        for (int i = 0; i < Math.min(any.n(), all.size()); i++) {
            context.write(key, all.get(i));
        }
    }
}
