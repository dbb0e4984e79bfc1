package org.smartssd.mapreduce;

import java.io.IOException;
import java.util.Arrays;

import org.apache.hadoop.io.BytesWritable;
import org.smartssd.device.tasklet.BpfProgram;
import org.smartssd.device.tasklet.BuiltinTasklet;

/**
 * What an eBPF program emitted ({@code ss_emit}), cut into records of
 * {@value #RECORD_SIZE} bytes, as (split start, ordinal) → record. Keys sort in input order;
 * an identity reduce writes the records in file order. Output the program emitted in pieces
 * that are not whole records fails the map, naming the sizes.
 */
public class ProgramRecordsFormat extends DeviceMapperFormat<LongPairWritable, BytesWritable> {
    /** The size of one emitted record, in bytes (required). */
    public static final String RECORD_SIZE = "smartssd.mapreduce.program.record.size";

    @Override
    public Class<LongPairWritable> keyClass() {
        return LongPairWritable.class;
    }

    @Override
    public Class<BytesWritable> valueClass() {
        return BytesWritable.class;
    }

    @Override
    public void convert(DeviceOutput output, Emitter<LongPairWritable, BytesWritable> out)
            throws IOException, InterruptedException {
        Formats.require(output, BuiltinTasklet.BPF, getClass());
        int size = getConf().getInt(RECORD_SIZE, 0);
        if (size <= 0) {
            throw new IOException(RECORD_SIZE + " is not set (the bytes of one record the "
                    + "program emits), or not positive: " + getConf().get(RECORD_SIZE));
        }
        byte[] emitted = BpfProgram.decode(output.bytes()).emitted();
        if (emitted.length % size != 0) {
            throw new IOException("program '" + BpfProgram.nameIn(output.spec()) + "' emitted "
                    + emitted.length + " bytes over " + output.file() + " at " + output.start()
                    + ", not whole records of " + size + " bytes (" + RECORD_SIZE + ")");
        }
        for (int i = 0, at = 0; at < emitted.length; i++, at += size) {
            out.emit(new LongPairWritable(output.start(), i),
                    new BytesWritable(Arrays.copyOfRange(emitted, at, at + size)));
        }
    }
}
