package org.smartssd.mapreduce;

import java.io.IOException;
import java.util.List;

import org.smartssd.device.tasklet.BuiltinTasklet;
import org.smartssd.device.tasklet.TopN;
import org.smartssd.device.tasklet.WhereParams;

/**
 * Top-N outputs as (group key1, key2) → ranked record, each carrying its split and position
 * so ties resolve as on one drive run. Reduce (and combine) with {@link TopNReducer}.
 */
public class TopNFormat extends DeviceMapperFormat<LongPairWritable, RankedWritable> {
    @Override
    public Class<LongPairWritable> keyClass() {
        return LongPairWritable.class;
    }

    @Override
    public Class<RankedWritable> valueClass() {
        return RankedWritable.class;
    }

    @Override
    public void convert(DeviceOutput output, Emitter<LongPairWritable, RankedWritable> out)
            throws IOException, InterruptedException {
        Formats.require(output, BuiltinTasklet.TOP_N, getClass());
        TopN top = WhereParams.parseTopN(output.spec().params());
        boolean signed = top.signedValue(output.layout());
        List<TopN.Item> items = TopN.decode(output.bytes()).items();
        for (int i = 0; i < items.size(); i++) {
            TopN.Item it = items.get(i);
            out.emit(new LongPairWritable(it.key1(), it.key2()), new RankedWritable(it.value(),
                    output.start(), i, top.n(), top.isSmallest(), signed, it.payload()));
        }
    }
}
