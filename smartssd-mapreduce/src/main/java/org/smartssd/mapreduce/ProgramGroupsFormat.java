package org.smartssd.mapreduce;

import java.io.IOException;

import org.smartssd.device.tasklet.BpfProgram;
import org.smartssd.device.tasklet.BuiltinTasklet;
import org.smartssd.device.tasklet.GroupAggregate.Op;

/**
 * The group table of an eBPF program's run ({@code ss_group_add}) as (key, 0) → partial
 * aggregate: count, sum (modulo 2^64), min and max of the values the program added, signed.
 * Reduce (and combine) with {@link AggregateReducer}: partials of one key merge exactly.
 */
public class ProgramGroupsFormat extends DeviceMapperFormat<LongPairWritable, AggregateWritable> {
    private static final int ALL_OPS = Op.COUNT.bit() | Op.SUM.bit() | Op.MIN.bit()
            | Op.MAX.bit();

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
        Formats.require(output, BuiltinTasklet.BPF, getClass());
        for (BpfProgram.Group g : BpfProgram.decode(output.bytes()).groups()) {
            out.emit(new LongPairWritable(g.key(), 0),
                    new AggregateWritable(ALL_OPS, true, g.count(), g.sum(), g.min(), g.max()));
        }
    }
}
