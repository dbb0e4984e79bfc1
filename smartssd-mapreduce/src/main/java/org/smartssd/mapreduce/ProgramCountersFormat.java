package org.smartssd.mapreduce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.apache.hadoop.io.LongWritable;
import org.smartssd.device.tasklet.BpfProgram;
import org.smartssd.device.tasklet.BuiltinTasklet;

/**
 * An eBPF program's output buffer read as running counters: little-endian 64-bit words,
 * index → value, one pair per word (the buffer's length must be a multiple of 8). Counters
 * of splits add up: reduce with Hadoop's {@code LongSumReducer}. For a program that counts
 * into {@code out} (a histogram, say); a buffer merged any other way needs its own format.
 */
public class ProgramCountersFormat extends DeviceMapperFormat<LongWritable, LongWritable> {
    @Override
    public Class<LongWritable> keyClass() {
        return LongWritable.class;
    }

    @Override
    public Class<LongWritable> valueClass() {
        return LongWritable.class;
    }

    @Override
    public void convert(DeviceOutput output, Emitter<LongWritable, LongWritable> out)
            throws IOException, InterruptedException {
        Formats.require(output, BuiltinTasklet.BPF, getClass());
        byte[] buf = BpfProgram.decode(output.bytes()).out();
        if (buf.length % 8 != 0) {
            throw new IOException("program '" + BpfProgram.nameIn(output.spec()) + "' has an "
                    + "output buffer of " + buf.length + " bytes, not 64-bit counters");
        }
        ByteBuffer b = ByteBuffer.wrap(buf).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < buf.length / 8; i++) {
            out.emit(new LongWritable(i), new LongWritable(b.getLong(i * 8)));
        }
    }
}
