package org.smartssd.spark;

import java.math.BigDecimal;
import java.math.BigInteger;

import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.unsafe.types.UTF8String;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.spark.TableLayout.Column;

/**
 * Field values in their three forms: the record's big-endian bytes, the drive's 8-byte wire
 * value (unsigned fields zero-extended, signed sign-extended) and Spark's internal value of
 * the column's type. Stateless.
 */
final class Values {
    private Values() {
    }

    /** The wire value of integer column {@code c} of the record at {@code off} of {@code b}. */
    static long wire(Column c, byte[] b, int off) {
        Field f = c.field();
        int at = off + f.offset();
        long raw = switch (f.type()) {
            case U8 -> b[at] & 0xffL;
            case U16 -> ((b[at] & 0xffL) << 8) | (b[at + 1] & 0xffL);
            case U32 -> be(b, at, 4);
            case I32 -> (int) be(b, at, 4);
            case U64, I64, TIMESTAMP, DECIMAL -> be(b, at, 8);
            case DATE -> (int) be(b, at, 4);
            case F32 -> RecordLayout.f32Key((int) be(b, at, 4));
            case F64 -> RecordLayout.f64Key(be(b, at, 8));
            case BYTES -> throw new IllegalArgumentException("column " + c.name() + " is bytes");
        };
        if (f.bits() != 0 || f.shift() != 0) {
            int bits = c.valueBits();
            raw = (raw >>> f.shift()) & (bits == 64 ? -1L : (1L << bits) - 1);
        }
        return raw;
    }

    private static long be(byte[] b, int at, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = (v << 8) | (b[at + i] & 0xffL);
        }
        return v;
    }

    /** Whether column {@code c} is NULL in the record at {@code off} (its null flag is set). */
    static boolean isNull(Column c, byte[] b, int off) {
        int k = c.field().nullBit() - 1;
        return k >= 0 && (b[off + k / 8] & (0x80 >>> (k % 8))) != 0;
    }

    /** Spark's internal value of column {@code c} of the record at {@code off}; null where
     *  the column is NULL. Floats keep their bits (-0.0, NaN payloads). */
    static Object fromRecord(Column c, byte[] b, int off) {
        if (isNull(c, b, off)) {
            return null;
        }
        int at = off + c.field().offset();
        if (c.field().type() == FieldType.F32) {
            return Float.intBitsToFloat((int) be(b, at, 4));
        }
        if (c.field().type() == FieldType.F64) {
            return Double.longBitsToDouble(be(b, at, 8));
        }
        if (c.isBytes()) {
            return UTF8String.fromBytes(b, at, unpaddedLength(b, at, c.field().width()));
        }
        return fromWire(c.sparkType(), wire(c, b, off));
    }

    /**
     * The length of the string a fixed-width {@code bytes(W)} field holds: its W bytes
     * without the trailing NUL bytes that pad a shorter value (the writer refuses values that
     * end in NUL). Text columns are not padded: their bytes are the value.
     */
    static int unpaddedLength(byte[] b, int at, int width) {
        int n = width;
        while (n > 0 && b[at + n - 1] == 0) {
            n--;
        }
        return n;
    }

    /**
     * Spark's internal values of columns {@code cols} of a text line (without its terminator),
     * as the drive reads them: columns split at every separator byte (no quoting); a missing
     * column is NULL; an integer column is {@code -?[0-9]+} within its type's range, else NULL.
     */
    static Object[] fromLine(TableLayout layout, int[] cols, byte[] line) {
        byte sep = layout.text().sep();
        int[] starts = new int[1];
        int n = 1;
        for (int i = 0; i < line.length; i++) {
            if (line[i] == sep) {
                if (n == starts.length) {
                    starts = java.util.Arrays.copyOf(starts, 2 * n);
                }
                starts[n++] = i + 1;
            }
        }
        Object[] v = new Object[cols.length];
        for (int i = 0; i < cols.length; i++) {
            Column c = layout.columns().get(cols[i]);
            int k = c.field().offset();
            if (k >= n) {
                continue;
            }
            int from = starts[k];
            int to = k + 1 < n ? starts[k + 1] - 1 : line.length;
            if (c.isBytes()) {
                v[i] = UTF8String.fromBytes(line, from, to - from);
            } else {
                Long x = parseDecimal(line, from, to, c);
                v[i] = x == null ? null : fromWire(c.sparkType(), x);
            }
        }
        return v;
    }

    /** A text integer as the drive parses it ({@code -?[0-9]+} within the field), or null. */
    static Long parseDecimal(byte[] b, int from, int to, Column c) {
        boolean neg = from < to && b[from] == '-';
        int i = neg ? from + 1 : from;
        if (i == to) {
            return null;
        }
        BigInteger v = BigInteger.ZERO;
        long small = 0;
        boolean big = false;
        for (; i < to; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return null;
            }
            if (!big && small > (Long.MAX_VALUE - 9) / 10) {
                big = true;
                v = BigInteger.valueOf(small);
            }
            if (big) {
                v = v.multiply(BigInteger.TEN).add(BigInteger.valueOf(b[i] - '0'));
            } else {
                small = small * 10 + (b[i] - '0');
            }
        }
        BigInteger x = big ? v : BigInteger.valueOf(small);
        if (neg) {
            x = x.negate();
        }
        return x.compareTo(c.min()) < 0 || x.compareTo(c.max()) > 0 ? null : x.longValue();
    }

    /** Spark's internal value of a wire value for a column of {@code type} (a float's order
     *  key for FLOAT and DOUBLE). */
    static Object fromWire(DataType type, long v) {
        if (type instanceof FloatType) {
            return RecordLayout.fromF32Key(v);
        }
        if (type instanceof DoubleType) {
            return RecordLayout.fromF64Key(v);
        }
        if (type instanceof DateType) {
            return (int) v;
        }
        if (type instanceof TimestampType || type instanceof TimestampNTZType) {
            return v;
        }
        if (type instanceof BooleanType) {
            return v != 0;
        }
        if (type instanceof DecimalType d && d.precision() <= 18) {
            return Decimal.apply(v, d.precision(), d.scale());
        }
        if (type instanceof ByteType) {
            return (byte) v;
        }
        if (type instanceof ShortType) {
            return (short) v;
        }
        if (type instanceof IntegerType) {
            return (int) v;
        }
        if (type instanceof LongType) {
            return v;
        }
        // DECIMAL(20,0): an unsigned 64-bit field
        return Decimal.apply(new BigDecimal(new BigInteger(Long.toUnsignedString(v))), 20, 0);
    }

    /**
     * The wire value of Spark's internal value {@code v} of an integer-valued column (the
     * inverse of {@link #fromWire} for BOOLEAN, integers, DATE, TIMESTAMP and DECIMAL of at
     * most 18 digits: its unscaled value).
     */
    static long toWire(Object v) {
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (v instanceof Decimal d) {
            return d.toUnscaledLong();
        }
        return ((Number) v).longValue();
    }

    /** The wire value as a number (signed columns signed, others unsigned). */
    static BigInteger number(Column c, long v) {
        return c.signed() ? BigInteger.valueOf(v) : new BigInteger(Long.toUnsignedString(v));
    }

    static boolean isSignedType(FieldType t) {
        return t == FieldType.I32 || t == FieldType.I64;
    }
}
