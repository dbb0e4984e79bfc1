package org.smartssd.device.tasklet;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.smartssd.device.RecordLayout;

/**
 * What every host tasklet does alike: counts the records, applies the WHERE stage in front
 * of the tasklet's own work ({@link #take}), and writes the output the drive writes: the
 * items, then the trailer (the tasklet, records in, items out, and the tasklet's aux word).
 */
abstract class HostRecordTasklet implements HostTasklet {
    private final BuiltinTasklet tasklet;
    private final HostPredicate where;
    final HostFields fields;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    long items;
    /** Set once the tasklet takes no more records (a filter's limit reached). */
    boolean done;
    private long records;

    HostRecordTasklet(BuiltinTasklet tasklet, RecordLayout layout, Predicate where) {
        this.tasklet = tasklet;
        this.fields = new HostFields(layout);
        if (where != null) {
            where.check(layout);
        }
        this.where = where == null ? null : new HostPredicate(where);
    }

    @Override
    public final boolean accept(byte[] b, int off, int len) {
        if (done) {
            return false;
        }
        records++;
        if (where != null && !where.test(fields.at(b, off, len))) {
            return true;
        }
        take(b, off, len);
        return !done;
    }

    @Override
    public final long recordsIn() {
        return records;
    }

    @Override
    public final byte[] finish() {
        writeItems();
        ByteBuffer t = le(Trailer.BYTES);
        t.putInt(Trailer.MAGIC).putInt(tasklet.id()).putLong(records).putLong(items)
                .putLong(aux());
        out.write(t.array(), 0, t.position());
        return out.toByteArray();
    }

    /** A record that passed the WHERE stage. */
    abstract void take(byte[] b, int off, int len);

    /** Writes the items kept until the end (groups, rankings) to {@link #out}. */
    void writeItems() {
    }

    /** The trailer's aux word. */
    long aux() {
        return 0;
    }

    static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }
}
