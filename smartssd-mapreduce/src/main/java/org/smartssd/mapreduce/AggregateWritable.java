package org.smartssd.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.StringJoiner;

import org.apache.hadoop.io.Writable;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.GroupAggregate.Item;
import org.smartssd.device.tasklet.GroupAggregate.Op;

/**
 * A partial (or merged) group aggregate: count, sum, min, max, which of them the job asked
 * for, and whether the value field is signed (MIN/MAX compare signed). Partials of one
 * group merge exactly with {@link #merge}: the reduce of group-aggregate device jobs.
 * Text form: the asked aggregates, {@code count=3<TAB>sum=60}.
 */
public class AggregateWritable implements Writable {
    private static final int SIGNED = 0x80;

    private int ops;
    private boolean signed;
    private long count;
    private long sum;
    private long min;
    private long max;

    public AggregateWritable() {
    }

    public AggregateWritable(int ops, boolean signed, long count, long sum, long min, long max) {
        this.ops = ops;
        this.signed = signed;
        this.count = count;
        this.sum = sum;
        this.min = min;
        this.max = max;
    }

    /** The aggregate of a drive item, for a job with these ops and value signedness. */
    public static AggregateWritable of(Item item, int ops, boolean signed) {
        return new AggregateWritable(ops, signed, item.count(), item.sum(), item.min(),
                item.max());
    }

    public long count() {
        return count;
    }

    public long sum() {
        return sum;
    }

    public long min() {
        return min;
    }

    public long max() {
        return max;
    }

    /** The asked aggregates, {@link Op#bit()}s. */
    public int ops() {
        return ops;
    }

    public boolean signed() {
        return signed;
    }

    /** Copies another aggregate into this one. */
    public void set(AggregateWritable o) {
        ops = o.ops;
        signed = o.signed;
        count = o.count;
        sum = o.sum;
        min = o.min;
        max = o.max;
    }

    /** Folds another partial of the same group into this one (GroupAggregate.Item#merge). */
    public void merge(AggregateWritable o) {
        Item merged = new Item(0, 0, count, sum, min, max)
                .merge(new Item(0, 0, o.count, o.sum, o.min, o.max), signed);
        count = merged.count();
        sum = merged.sum();
        min = merged.min();
        max = merged.max();
        ops |= o.ops;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        out.writeByte(ops | (signed ? SIGNED : 0));
        out.writeLong(count);
        out.writeLong(sum);
        out.writeLong(min);
        out.writeLong(max);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        int b = in.readUnsignedByte();
        ops = b & ~SIGNED;
        signed = (b & SIGNED) != 0;
        count = in.readLong();
        sum = in.readLong();
        min = in.readLong();
        max = in.readLong();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AggregateWritable a && a.ops == ops && a.signed == signed
                && a.count == count && a.sum == sum && a.min == min && a.max == max;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count) * 31 + Long.hashCode(sum);
    }

    @Override
    public String toString() {
        StringJoiner j = new StringJoiner("\t");
        j.add("count=" + count);
        if ((ops & Op.SUM.bit()) != 0) {
            j.add("sum=" + (signed ? Long.toString(sum) : Long.toUnsignedString(sum)));
        }
        if ((ops & Op.MIN.bit()) != 0) {
            j.add("min=" + (signed ? Long.toString(min) : Long.toUnsignedString(min)));
        }
        if ((ops & Op.MAX.bit()) != 0) {
            j.add("max=" + (signed ? Long.toString(max) : Long.toUnsignedString(max)));
        }
        return j.toString();
    }

    /** The asked aggregates of {@code agg} as {@link Op#bit()}s, as {@link #ops()} holds them. */
    public static int bits(GroupAggregate agg) {
        int b = 0;
        for (Op o : agg.ops()) {
            b |= o.bit();
        }
        return b;
    }
}
