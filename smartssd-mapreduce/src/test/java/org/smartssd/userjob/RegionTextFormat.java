package org.smartssd.userjob;

import java.io.IOException;

import org.apache.hadoop.io.Text;
import org.smartssd.device.tasklet.BuiltinTasklet;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.WhereParams;
import org.smartssd.mapreduce.AggregateWritable;
import org.smartssd.mapreduce.DeviceOutput;
import org.smartssd.mapreduce.DeviceMapperFormat;

/**
 * A user's own group-aggregate format, outside {@code org.smartssd.mapreduce}: keys as text
 * ({@code region-N}), values as the stock partial aggregate. It compiles only against the
 * public helpers a format needs ({@link WhereParams#parseGroupAggregate},
 * {@link AggregateWritable#bits}).
 */
public class RegionTextFormat extends DeviceMapperFormat<Text, AggregateWritable> {
    @Override
    public Class<Text> keyClass() {
        return Text.class;
    }

    @Override
    public Class<AggregateWritable> valueClass() {
        return AggregateWritable.class;
    }

    @Override
    public void convert(DeviceOutput output, Emitter<Text, AggregateWritable> out)
            throws IOException, InterruptedException {
        if (output.spec().taskletId() != BuiltinTasklet.GROUP_AGGREGATE.id()) {
            throw new IOException("not a group-aggregate output");
        }
        GroupAggregate agg = WhereParams.parseGroupAggregate(output.spec().params());
        int ops = AggregateWritable.bits(agg);
        boolean signed = agg.signedValue(output.layout());
        for (GroupAggregate.Item item : GroupAggregate.decode(output.bytes()).items()) {
            out.emit(new Text("region-" + item.key1()), AggregateWritable.of(item, ops, signed));
        }
    }
}
