package org.smartssd.mapreduce;

import java.io.IOException;

import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.smartssd.device.tasklet.BuiltinTasklet;
import org.smartssd.device.tasklet.Trailer;

/**
 * The counts of any built-in tasklet's trailer as name → count: {@code records} (records,
 * lines or pages examined), {@code items} (items written) and the tasklet's own figure,
 * {@code matches} (filter, grep), {@code spills} (group-aggregate, top-N) or
 * {@code matching_loads} (dram-probe). Counts of splits add up: reduce with Hadoop's
 * {@code LongSumReducer}. The usual format of filter COUNT mode and grep line counts.
 */
public class CountsFormat extends DeviceMapperFormat<Text, LongWritable> {
    @Override
    public Class<Text> keyClass() {
        return Text.class;
    }

    @Override
    public Class<LongWritable> valueClass() {
        return LongWritable.class;
    }

    @Override
    public void convert(DeviceOutput output, Emitter<Text, LongWritable> out)
            throws IOException, InterruptedException {
        BuiltinTasklet t = Formats.tasklet(output);
        Trailer tr = Trailer.of(output.bytes(), t);
        out.emit(new Text("records"), new LongWritable(tr.recordsIn()));
        out.emit(new Text("items"), new LongWritable(tr.itemsOut()));
        out.emit(new Text(auxName(t)), new LongWritable(tr.aux()));
    }

    static String auxName(BuiltinTasklet t) {
        return switch (t) {
            case FILTER, GREP, PARQUET_SCAN -> "matches";
            case GROUP_AGGREGATE, TOP_N -> "spills";
            case DRAM_PROBE -> "matching_loads";
        };
    }
}
