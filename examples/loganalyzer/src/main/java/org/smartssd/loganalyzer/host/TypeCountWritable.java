package org.smartssd.loganalyzer.host;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

import org.apache.hadoop.io.Writable;

/** A map output of Q2: a file type and a request count (1 per record in host-normal). */
public final class TypeCountWritable implements Writable {
    private int type;
    private long count;

    public TypeCountWritable() {
    }

    public TypeCountWritable(int type, long count) {
        set(type, count);
    }

    public TypeCountWritable set(int type, long count) {
        this.type = type;
        this.count = count;
        return this;
    }

    public int type() {
        return type;
    }

    public long count() {
        return count;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        out.writeByte(type);
        out.writeLong(count);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        type = in.readUnsignedByte();
        count = in.readLong();
    }

    @Override
    public String toString() {
        return type + ":" + count;
    }
}
