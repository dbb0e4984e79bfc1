package org.smartssd.device.tasklet;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;

/**
 * A record's fields as the drive reads them: big-endian FIXED fields (a set null flag: no
 * value), bit fields, TEXT columns that are {@code -?[0-9]+} within the type's range, and the
 * projection of fields the filter and top-N write. A numeric read leaves its value in
 * {@link #value()}. As {@link RowFields}, the fields of the record {@link #at} names. Not
 * thread-safe.
 */
final class HostFields implements RowFields {
    private final RecordLayout layout;
    private long value;
    private byte[] rec;
    private int recOff;
    private int recLen;

    HostFields(RecordLayout layout) {
        this.layout = layout;
    }

    RecordLayout layout() {
        return layout;
    }

    /** The value of the last numeric field read. */
    @Override
    public long value() {
        return value;
    }

    /** These fields as {@link RowFields} of the record at {@code b[off, off + len)}. */
    HostFields at(byte[] b, int off, int len) {
        rec = b;
        recOff = off;
        recLen = len;
        return this;
    }

    @Override
    public FieldType type(int f) {
        return layout.fields().get(f).type();
    }

    @Override
    public boolean number(int f) {
        return intField(f, rec, recOff, recLen);
    }

    @Override
    public int[] bytes(int f) {
        return bytesField(f, rec, recOff, recLen);
    }

    @Override
    public byte[] array(int f) {
        return rec;
    }

    static long mask(int bits) {
        return bits >= 64 ? -1L : (1L << bits) - 1;
    }

    /** Whether FIXED field {@code fd}'s null flag is set in the record. */
    private static boolean isNull(Field fd, byte[] b, int off, int len) {
        if (!fd.nullable()) {
            return false;
        }
        int k = fd.nullBit() - 1;
        return k / 8 >= len || (b[off + k / 8] & (0x80 >>> (k % 8))) != 0;
    }

    /** Numeric field {@code f} into {@link #value()} as the drive reads it; false: no
     *  value. */
    boolean intField(int f, byte[] b, int off, int len) {
        Field fd = layout.fields().get(f);
        FieldType t = fd.type();
        int w = t.bits() / 8;
        boolean signed = t == FieldType.I32 || t == FieldType.I64;
        long raw = 0;
        if (layout.kind() == RecordLayout.Kind.FIXED) {
            if (fd.offset() + w > len || isNull(fd, b, off, len)) {
                return false;
            }
            for (int i = 0; i < w; i++) {
                raw = raw << 8 | (b[off + fd.offset() + i] & 0xffL);
            }
            raw = switch (t) {
                case I32, DATE -> (int) raw;
                case F32 -> RecordLayout.f32Key((int) raw);
                case F64 -> RecordLayout.f64Key(raw);
                default -> raw;
            };
        } else {
            int[] c = column(fd.offset(), b, off, len);
            if (c == null || !parseDecimal(b, c[0], c[1], signed)) {
                return false;
            }
            raw = value;
            if (w < 8 && (signed ? raw < Integer.MIN_VALUE || raw > Integer.MAX_VALUE
                    : Long.compareUnsigned(raw, mask(8 * w)) > 0)) {
                return false;
            }
        }
        raw >>>= fd.shift();
        if (fd.bits() != 0 && fd.bits() < 64) {
            raw &= mask(fd.bits());
        }
        value = raw;
        return true;
    }

    /** {@code -?[0-9]+} (the sign only for signed types) within 64 bits, into value. */
    private boolean parseDecimal(byte[] b, int at, int n, boolean signed) {
        int i = 0;
        boolean neg = false;
        if (n > 0 && b[at] == '-' && signed) {
            neg = true;
            i = 1;
        }
        if (i == n) {
            return false;
        }
        long x = 0;
        for (; i < n; i++) {
            int d = b[at + i] - '0';
            if (d < 0 || d > 9) {
                return false;
            }
            if (Long.compareUnsigned(x, Long.divideUnsigned(-1L - d, 10)) > 0) {
                return false;
            }
            x = x * 10 + d;
        }
        if (signed && (neg ? Long.compareUnsigned(x, Long.MIN_VALUE) > 0 : x < 0)) {
            return false;
        }
        value = neg ? -x : x;
        return true;
    }

    /** {start, length} of bytes field {@code f}, null when the record has none. */
    int[] bytesField(int f, byte[] b, int off, int len) {
        Field fd = layout.fields().get(f);
        if (layout.kind() == RecordLayout.Kind.TEXT) {
            return column(fd.offset(), b, off, len);
        }
        if (fd.offset() + fd.width() > len || isNull(fd, b, off, len)) {
            return null;
        }
        return new int[] {off + fd.offset(), fd.width()};
    }

    /** {start, length} of text column {@code col} of a line, null when the line is shorter. */
    private int[] column(int col, byte[] b, int off, int len) {
        byte sep = (byte) layout.fieldSep();
        int c = 0;
        int start = 0;
        int i = 0;
        for (; i < len; i++) {
            if (b[off + i] != sep) {
                continue;
            }
            if (c == col) {
                break;
            }
            c++;
            start = i + 1;
        }
        return c == col ? new int[] {off + start, i - start} : null;
    }

    /** The projected fields ({@link Projection}); a field without a value as 0 or "". */
    void project(int[] projected, byte[] b, int off, int len, ByteArrayOutputStream o) {
        ByteBuffer x = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        for (int f : projected) {
            if (layout.fields().get(f).type() == FieldType.BYTES) {
                int[] r = bytesField(f, b, off, len);
                int n = r == null ? 0 : r[1];
                o.write(n & 0xff);
                o.write(n >>> 8);
                if (n > 0) {
                    o.write(b, r[0], n);
                }
            } else {
                x.clear();
                x.putLong(intField(f, b, off, len) ? value : 0);
                o.write(x.array(), 0, 8);
            }
        }
    }

    /** The first two of {@code keys} into {@code key} (0 when unused); false: one has no
     *  value, and the drive skips the record. */
    boolean keys(int[] keys, byte[] b, int off, int len, long[] key) {
        for (int i = 0; i < 2; i++) {
            key[i] = 0;
            if (i < keys.length) {
                if (!intField(keys[i], b, off, len)) {
                    return false;
                }
                key[i] = value;
            }
        }
        return true;
    }
}
