package org.smartssd.mapreduce;

import java.io.IOException;

import org.apache.hadoop.conf.Configured;

/**
 * Turns a tasklet's output object into the key/value pairs the reduce gets (Kang §6.4.2).
 * One instance per map task, made by reflection (public no-argument constructor) and given
 * the job configuration. The on-device map already combined and locally reduced its split,
 * so a format usually emits few pairs: partial aggregates, top lists, matches.
 *
 * <p>The built-in formats cover the built-in tasklets: {@link AggregateFormat},
 * {@link TopNFormat}, {@link RecordsFormat}, {@link PagesFormat} and {@link CountsFormat}.
 *
 * @param <K> map output key
 * @param <V> map output value
 */
public abstract class DeviceMapperFormat<K, V> extends Configured {
    /** Where pairs go: the map task's context. */
    @FunctionalInterface
    public interface Emitter<K, V> {
        void emit(K key, V value) throws IOException, InterruptedException;
    }

    /** The map output key class ({@link DeviceJob} sets it on the job). */
    public abstract Class<K> keyClass();

    /** The map output value class. */
    public abstract Class<V> valueClass();

    /**
     * Converts the output of one split's tasklet run.
     *
     * @throws IOException when the output cannot be decoded (e.g. no valid trailer)
     */
    public abstract void convert(DeviceOutput output, Emitter<K, V> out)
            throws IOException, InterruptedException;
}
