package org.smartssd.spark;

import java.math.BigDecimal;
import java.math.BigInteger;

import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.unsafe.types.UTF8String;
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
            case U64, I64 -> be(b, at, 8);
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

    /** Spark's internal value of column {@code c} of the record at {@code off}. */
    static Object fromRecord(Column c, byte[] b, int off) {
        if (c.isBytes()) {
            return UTF8String.fromBytes(b, off + c.field().offset(), c.field().width());
        }
        return fromWire(c.sparkType(), wire(c, b, off));
    }

    /** Spark's internal value of a wire value for a column of {@code type}. */
    static Object fromWire(DataType type, long v) {
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

    /** The wire value as a number (signed columns signed, others unsigned). */
    static BigInteger number(Column c, long v) {
        return c.signed() ? BigInteger.valueOf(v) : new BigInteger(Long.toUnsignedString(v));
    }

    static boolean isSignedType(FieldType t) {
        return t == FieldType.I32 || t == FieldType.I64;
    }
}
