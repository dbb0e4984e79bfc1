package org.smartssd.mapreduce;

import java.io.IOException;

import org.smartssd.device.tasklet.BuiltinTasklet;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.WhereParams;

/**
 * Group-aggregate outputs as (group key1, key2) → partial aggregate, one pair per group per
 * spill, with or without a WHERE stage in the params ({@link WhereParams}). Reduce (and
 * combine) with {@link AggregateReducer}: the merge is exact.
 */
public class AggregateFormat extends DeviceMapperFormat<LongPairWritable, AggregateWritable> {
    @Override
    public Class<LongPairWritable> keyClass() {
        return LongPairWritable.class;
    }

    @Override
    public Class<AggregateWritable> valueClass() {
        return AggregateWritable.class;
    }

    @Override
    public void convert(DeviceOutput output, Emitter<LongPairWritable, AggregateWritable> out)
            throws IOException, InterruptedException {
        Formats.require(output, BuiltinTasklet.GROUP_AGGREGATE, getClass());
        GroupAggregate agg = WhereParams.parseGroupAggregate(output.spec().params());
        boolean signed = agg.signedValue(output.layout());
        int ops = AggregateWritable.bits(agg);
        for (GroupAggregate.Item item : GroupAggregate.decode(output.bytes()).items()) {
            out.emit(new LongPairWritable(item.key1(), item.key2()),
                    AggregateWritable.of(item, ops, signed));
        }
    }
}
