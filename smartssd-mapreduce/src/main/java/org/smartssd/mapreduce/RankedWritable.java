package org.smartssd.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;

import org.apache.hadoop.io.Writable;
import org.smartssd.device.tasklet.TopN;

/**
 * One ranked record of a top-N device job: its value and payload, where it came from (split
 * start and position in that split's output, for ties: the earlier item wins) and how the
 * job ranks (n, smallest or largest, signed values). {@link TopNReducer} keeps the n best.
 * Text form: {@code value<TAB>payload length}.
 */
public class RankedWritable implements Writable {
    private static final int SMALLEST = 0x1;
    private static final int SIGNED = 0x2;

    private long value;
    private long splitStart;
    private long ordinal;
    private int n;
    private boolean smallest;
    private boolean signed;
    private byte[] payload = new byte[0];

    public RankedWritable() {
    }

    public RankedWritable(long value, long splitStart, long ordinal, int n, boolean smallest,
                          boolean signed, byte[] payload) {
        this.value = value;
        this.splitStart = splitStart;
        this.ordinal = ordinal;
        this.n = n;
        this.smallest = smallest;
        this.signed = signed;
        this.payload = payload.clone();
    }

    public long value() {
        return value;
    }

    public long splitStart() {
        return splitStart;
    }

    public long ordinal() {
        return ordinal;
    }

    public int n() {
        return n;
    }

    public boolean smallest() {
        return smallest;
    }

    public boolean signed() {
        return signed;
    }

    /** The payload: projected fields ({@link org.smartssd.device.tasklet.Projection}) or the
     *  whole record. */
    public byte[] payload() {
        return payload.clone();
    }

    public RankedWritable copy() {
        return new RankedWritable(value, splitStart, ordinal, n, smallest, signed, payload);
    }

    /** Best first, ties to the earlier split, then the earlier item in its output. */
    public static Comparator<RankedWritable> ranking(boolean smallest, boolean signed) {
        Comparator<Long> byValue = TopN.ranking(smallest, signed);
        return Comparator.<RankedWritable, Long>comparing(r -> r.value, byValue)
                .thenComparingLong(r -> r.splitStart).thenComparingLong(r -> r.ordinal);
    }

    @Override
    public void write(DataOutput out) throws IOException {
        out.writeLong(value);
        out.writeLong(splitStart);
        out.writeLong(ordinal);
        out.writeShort(n);
        out.writeByte((smallest ? SMALLEST : 0) | (signed ? SIGNED : 0));
        out.writeInt(payload.length);
        out.write(payload);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        value = in.readLong();
        splitStart = in.readLong();
        ordinal = in.readLong();
        n = in.readUnsignedShort();
        int flags = in.readUnsignedByte();
        smallest = (flags & SMALLEST) != 0;
        signed = (flags & SIGNED) != 0;
        payload = new byte[in.readInt()];
        in.readFully(payload);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RankedWritable r && r.value == value && r.splitStart == splitStart
                && r.ordinal == ordinal && r.n == n && r.smallest == smallest
                && r.signed == signed && Arrays.equals(r.payload, payload);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(value) * 31 + Long.hashCode(ordinal) + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return (signed ? Long.toString(value) : Long.toUnsignedString(value)) + "\t"
                + payload.length;
    }
}
