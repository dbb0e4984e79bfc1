package org.smartssd.device.tasklet;

import org.smartssd.device.TaskletFailedException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.FieldType;

/**
 * Projected fields as the drive writes them (filter PROJECT rows, top-N payloads): the
 * listed fields in order, no padding; an integer field as 8 little-endian bytes (unsigned
 * fields zero-extended, signed sign-extended, an unparsable TEXT column 0), a BYTES field as
 * a little-endian u16 length and the bytes. Decoded values are {@link Long} or
 * {@code byte[]}.
 */
public final class Projection {
    private final FieldType[] types;

    /** The projection of {@code fields} (layout indexes) of {@code layout}. */
    public Projection(RecordLayout layout, int... fields) {
        types = new FieldType[fields.length];
        for (int i = 0; i < fields.length; i++) {
            types[i] = Fields.type(layout, fields[i], "projected");
        }
    }

    public int size() {
        return types.length;
    }

    /** One row read from {@code b} (little-endian), advancing it. */
    public List<Object> read(ByteBuffer b) throws TaskletFailedException {
        b.order(ByteOrder.LITTLE_ENDIAN);
        List<Object> row = new ArrayList<>(types.length);
        for (int i = 0; i < types.length; i++) {
            if (types[i] == FieldType.BYTES) {
                if (b.remaining() < 2) {
                    throw TaskletFailedException.incompleteOutput("projected row ends inside the length "
                            + "of field " + i);
                }
                int len = Short.toUnsignedInt(b.getShort());
                if (len > b.remaining()) {
                    throw TaskletFailedException.incompleteOutput("projected field " + i + " of " + len
                            + " bytes runs past the data (" + b.remaining() + " left)");
                }
                byte[] v = new byte[len];
                b.get(v);
                row.add(v);
            } else {
                if (b.remaining() < 8) {
                    throw TaskletFailedException.incompleteOutput("projected row ends inside integer "
                            + "field " + i);
                }
                row.add(b.getLong());
            }
        }
        return Collections.unmodifiableList(row);
    }

    /** The one row that is all of {@code payload} (a top-N payload). */
    public List<Object> decode(byte[] payload) throws TaskletFailedException {
        ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        List<Object> row = read(b);
        if (b.hasRemaining()) {
            throw TaskletFailedException.incompleteOutput(b.remaining() + " bytes follow the projected "
                    + "fields of a payload");
        }
        return row;
    }
}
