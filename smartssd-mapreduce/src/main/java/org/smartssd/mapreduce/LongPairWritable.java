package org.smartssd.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;

/**
 * Two longs, ordered by the first then the second (signed). The key of grouped results
 * (group key1, key2), of records (split start, ordinal: input order) and of pages
 * (object id, page offset). Text form: {@code first<TAB>second}.
 */
public class LongPairWritable implements WritableComparable<LongPairWritable> {
    public static final int BYTES = 16;

    private long first;
    private long second;

    public LongPairWritable() {
    }

    public LongPairWritable(long first, long second) {
        this.first = first;
        this.second = second;
    }

    public void set(long first, long second) {
        this.first = first;
        this.second = second;
    }

    public long first() {
        return first;
    }

    public long second() {
        return second;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        out.writeLong(first);
        out.writeLong(second);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        first = in.readLong();
        second = in.readLong();
    }

    @Override
    public int compareTo(LongPairWritable o) {
        int c = Long.compare(first, o.first);
        return c != 0 ? c : Long.compare(second, o.second);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LongPairWritable p && p.first == first && p.second == second;
    }

    @Override
    public int hashCode() {
        // the default HashPartitioner spreads groups by this
        return Long.hashCode(first) * 31 + Long.hashCode(second);
    }

    @Override
    public String toString() {
        return first + "\t" + second;
    }

    /** Compares serialized pairs without deserializing them. */
    public static final class Comparator extends WritableComparator {
        public Comparator() {
            super(LongPairWritable.class);
        }

        @Override
        public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
            int c = Long.compare(readLong(b1, s1), readLong(b2, s2));
            return c != 0 ? c : Long.compare(readLong(b1, s1 + 8), readLong(b2, s2 + 8));
        }
    }

    static {
        WritableComparator.define(LongPairWritable.class, new Comparator());
    }
}
