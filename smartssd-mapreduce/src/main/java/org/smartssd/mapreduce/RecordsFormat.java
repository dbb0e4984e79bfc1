package org.smartssd.mapreduce;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

import org.apache.hadoop.io.BytesWritable;
import org.smartssd.device.tasklet.BuiltinTasklet;
import org.smartssd.device.tasklet.Filter;
import org.smartssd.device.tasklet.Grep;
import org.smartssd.device.TaskletFailedException;
import org.smartssd.device.tasklet.Projection;
import org.smartssd.device.tasklet.Trailer;

/**
 * Matches of a filter (RECORDS or PROJECT mode) or of a grep that writes its lines, as
 * (split start, ordinal) → bytes: the record (TEXT: the line without its delimiter) or the
 * projected row ({@link Projection#decode}). Keys sort in input order; an identity reduce
 * (Hadoop's {@code Reducer}) writes the matches in file order.
 */
public class RecordsFormat extends DeviceMapperFormat<LongPairWritable, BytesWritable> {
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
        BuiltinTasklet t = Formats.tasklet(output);
        if (t == BuiltinTasklet.GREP) {
            Grep grep = Grep.parse(output.spec().params());
            emit(output, grep.decode(output.bytes(), output.layout()).matchingLines(), out);
            return;
        }
        Formats.require(output, BuiltinTasklet.FILTER, getClass());
        Filter f = Filter.parse(output.spec().params());
        switch (f.mode()) {
            case RECORDS -> emit(output, f.decode(output.bytes(), output.layout()).records(), out);
            case PROJECT -> emitRows(output, f, out);
            default -> throw new IOException(getClass().getSimpleName() + " reads filters in "
                    + "RECORDS or PROJECT mode, this one is in " + f.mode()
                    + " mode (use PagesFormat or CountsFormat)");
        }
    }

    private static void emit(DeviceOutput output, List<byte[]> records,
                             Emitter<LongPairWritable, BytesWritable> out)
            throws IOException, InterruptedException {
        for (int i = 0; i < records.size(); i++) {
            out.emit(new LongPairWritable(output.start(), i), new BytesWritable(records.get(i)));
        }
    }

    /** Rows stay in the drive's encoding; their boundaries come from decoding them. */
    private static void emitRows(DeviceOutput output, Filter f,
                                 Emitter<LongPairWritable, BytesWritable> out)
            throws IOException, InterruptedException {
        Trailer t = Trailer.of(output.bytes(), BuiltinTasklet.FILTER);
        Projection p = new Projection(output.layout(), f.projection());
        ByteBuffer b = ByteBuffer.wrap(output.bytes(), 0, output.bytes().length - Trailer.BYTES);
        long i = 0;
        while (b.hasRemaining()) {
            int at = b.position();
            p.read(b);
            byte[] row = new byte[b.position() - at];
            System.arraycopy(output.bytes(), at, row, 0, row.length);
            out.emit(new LongPairWritable(output.start(), i++), new BytesWritable(row));
        }
        if (i != t.itemsOut()) {
            throw TaskletFailedException.incompleteOutput("filter output holds " + i
                    + " rows but its trailer announces " + t.itemsOut());
        }
    }
}
