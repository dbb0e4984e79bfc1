package org.smartssd.spark;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;

import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.TimestampType;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.spark.TableLayout.Column;

/**
 * Spark's FLOAT, DOUBLE, DATE, TIMESTAMP and DECIMAL(P<=18,S) columns as the layout's typed
 * fields (f32, f64, date, timestamp, decimal(P,S)): which layout type a Spark type is written
 * as, and the raw big-endian value of a row's value. Stateless.
 */
final class TypedFields {
    private TypedFields() {
    }

    /** The largest DECIMAL precision a scaled 64-bit integer holds. */
    static final int MAX_DECIMAL_PRECISION = 18;

    /** The layout type ({@link TableLayout}'s spec) of a Spark type, or null when not typed. */
    static String layoutType(DataType t) {
        if (t instanceof FloatType) {
            return "f32";
        }
        if (t instanceof DoubleType) {
            return "f64";
        }
        if (t instanceof DateType) {
            return "date";
        }
        if (t instanceof TimestampType) {
            return "timestamp";
        }
        if (t instanceof DecimalType d && d.precision() <= MAX_DECIMAL_PRECISION) {
            return "decimal(" + d.precision() + "," + d.scale() + ")";
        }
        return null;
    }

    /** Whether rows of Spark type {@code t} can be written into typed column {@code c}. */
    static boolean accepts(Column c, DataType t) {
        return switch (c.field().type()) {
            case F32 -> t instanceof FloatType;
            case F64 -> t instanceof DoubleType || t instanceof FloatType;
            case DATE -> t instanceof DateType;
            case TIMESTAMP -> t instanceof TimestampType;
            case DECIMAL -> t instanceof DecimalType || t instanceof org.apache.spark.sql.types.ByteType
                    || t instanceof org.apache.spark.sql.types.ShortType
                    || t instanceof org.apache.spark.sql.types.IntegerType
                    || t instanceof org.apache.spark.sql.types.LongType;
            default -> false;
        };
    }

    /**
     * The raw field value of a row value (an external Row's Java object) for typed column
     * {@code c}: a float's or double's IEEE bits, days, microseconds, or the unscaled decimal.
     *
     * @throws IllegalArgumentException for a decimal the field cannot hold exactly
     */
    static long raw(Column c, Object v) {
        FieldType t = c.field().type();
        switch (t) {
            case F32:
                return Float.floatToRawIntBits((Float) v) & 0xffffffffL;
            case F64:
                return Double.doubleToRawLongBits(((Number) v).doubleValue());
            case DATE:
                return v instanceof LocalDate d ? DateTimeUtils.localDateToDays(d)
                        : DateTimeUtils.fromJavaDate((java.sql.Date) v);
            case TIMESTAMP:
                if (v instanceof Instant i) {
                    return DateTimeUtils.instantToMicros(i);
                }
                if (v instanceof LocalDateTime) {
                    throw new IllegalArgumentException("column '" + c.name() + "' is a "
                            + "TIMESTAMP field; TIMESTAMP_NTZ values are not written");
                }
                return DateTimeUtils.fromJavaTimestamp((java.sql.Timestamp) v);
            case DECIMAL:
                return unscaled(c, v);
            default:
                throw new IllegalStateException(t + " is not a typed field");
        }
    }

    private static long unscaled(Column c, Object v) {
        BigDecimal d = v instanceof BigDecimal b ? b : BigDecimal.valueOf(((Number) v).longValue());
        BigInteger u;
        try {
            u = d.setScale(c.field().width()).unscaledValue();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("value " + d.toPlainString() + " of column '"
                    + c.name() + "' has more than the field's " + c.field().width()
                    + " decimal places");
        }
        if (u.abs().compareTo(c.max()) > 0) {
            throw new IllegalArgumentException("value " + d.toPlainString() + " of column '"
                    + c.name() + "' is outside the field's DECIMAL(" + c.precision() + ","
                    + c.field().width() + ")");
        }
        return u.longValueExact();
    }
}
