package org.smartssd.mapreduce;

import java.io.IOException;
import java.util.Iterator;

import org.apache.hadoop.mapreduce.Reducer;

/** Writes each key once, with its first value: drops pages that two splits both reported. */
public class FirstValueReducer<K, V> extends Reducer<K, V, K, V> {
    @Override
    protected void reduce(K key, Iterable<V> values, Context context)
            throws IOException, InterruptedException {
        Iterator<V> it = values.iterator();
        if (it.hasNext()) {
            context.write(key, it.next());
        }
    }
}
