package org.smartssd.spark;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToIntFunction;

import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringContains;
import org.apache.spark.sql.sources.StringEndsWith;
import org.apache.spark.sql.sources.StringStartsWith;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.tasklet.Predicate;
import org.smartssd.scan.parquet.DriveColumn;

/**
 * Spark's pushed filters as parquet-scan WHERE trees: comparisons, IN, IS [NOT] NULL,
 * AND/OR/NOT, string equality, prefix, suffix and substring. A filter that does not
 * translate (a string ordering, a NULL in IN, a decimal constant of another scale) stays
 * with Spark. One that does is the scan's alone (ParquetScanBuilder tells Spark so, and
 * Spark does not check it again), so its tree must keep exactly the rows Spark's filter
 * keeps, with SQL's NULLs: the drive's logic is three-valued, its FLOAT/DOUBLE order keys
 * compare as Spark does (-0.0 = 0.0, NaN = NaN), its strings as UTF-8 bytes.
 */
final class ParquetDriveFilters {
    private ParquetDriveFilters() {
    }

    /**
     * The tree of {@code f}; {@code column} gives the plan column of a name (adding it to
     * the plan) or -1 when the drive cannot read it.
     */
    static Optional<Predicate> translate(Filter f, ToIntFunction<String> column,
                                         java.util.function.IntFunction<DriveColumn> typeOf) {
        try {
            return Optional.of(tree(f, column, typeOf));
        } catch (Untranslatable e) {
            return Optional.empty();
        }
    }

    private static final class Untranslatable extends RuntimeException {
        Untranslatable() {
            super(null, null, false, false);
        }
    }

    private static Predicate tree(Filter f, ToIntFunction<String> column,
                                  java.util.function.IntFunction<DriveColumn> typeOf) {
        if (f instanceof And a) {
            return Predicate.and(tree(a.left(), column, typeOf), tree(a.right(), column, typeOf));
        }
        if (f instanceof Or o) {
            return Predicate.or(tree(o.left(), column, typeOf), tree(o.right(), column, typeOf));
        }
        if (f instanceof Not n) {
            return Predicate.not(tree(n.child(), column, typeOf));
        }
        if (f instanceof IsNull n) {
            return Predicate.isNull(field(n.attribute(), column));
        }
        if (f instanceof IsNotNull n) {
            return Predicate.not(Predicate.isNull(field(n.attribute(), column)));
        }
        if (f instanceof EqualTo e) {
            return equal(e.attribute(), e.value(), column, typeOf);
        }
        if (f instanceof In in) {
            List<Predicate> any = new ArrayList<>();
            for (Object v : in.values()) {
                any.add(equal(in.attribute(), v, column, typeOf));
            }
            if (any.isEmpty() || any.size() > 255) {
                throw new Untranslatable();
            }
            return new Predicate.Or(any);
        }
        if (f instanceof StringStartsWith s) {
            return bytes(Predicate.Match.PREFIX, s.attribute(), s.value(), column, typeOf);
        }
        if (f instanceof StringEndsWith s) {
            return bytes(Predicate.Match.SUFFIX, s.attribute(), s.value(), column, typeOf);
        }
        if (f instanceof StringContains s) {
            return bytes(Predicate.Match.CONTAINS, s.attribute(), s.value(), column, typeOf);
        }
        Predicate.Compare op;
        String attr;
        Object value;
        if (f instanceof GreaterThan g) {
            op = Predicate.Compare.GT;
            attr = g.attribute();
            value = g.value();
        } else if (f instanceof GreaterThanOrEqual g) {
            op = Predicate.Compare.GE;
            attr = g.attribute();
            value = g.value();
        } else if (f instanceof LessThan l) {
            op = Predicate.Compare.LT;
            attr = l.attribute();
            value = l.value();
        } else if (f instanceof LessThanOrEqual l) {
            op = Predicate.Compare.LE;
            attr = l.attribute();
            value = l.value();
        } else {
            throw new Untranslatable();
        }
        int i = field(attr, column);
        return new Predicate.Cmp(op, i, number(typeOf.apply(i), value));
    }

    private static Predicate equal(String attr, Object v, ToIntFunction<String> column,
                                   java.util.function.IntFunction<DriveColumn> typeOf) {
        int i = field(attr, column);
        if (typeOf.apply(i).type() == DriveColumn.T_BYTE_ARRAY) {
            return Predicate.bytesEq(i, text(v));
        }
        return Predicate.eq(i, number(typeOf.apply(i), v));
    }

    private static Predicate bytes(Predicate.Match op, String attr, String v,
                                   ToIntFunction<String> column,
                                   java.util.function.IntFunction<DriveColumn> typeOf) {
        int i = field(attr, column);
        if (typeOf.apply(i).type() != 6) {
            throw new Untranslatable();
        }
        return new Predicate.Bytes(op, i, v.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] text(Object v) {
        if (v instanceof String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        if (v instanceof byte[] b) {
            return b;
        }
        throw new Untranslatable();
    }

    private static int field(String attr, ToIntFunction<String> column) {
        int i = column.applyAsInt(attr);
        if (i < 0) {
            throw new Untranslatable();
        }
        return i;
    }

    /** A constant as the drive sees the column's values (tasklets/README.md "6"). */
    private static long number(DriveColumn c, Object v) {
        if (v == null || c.type() == DriveColumn.T_BYTE_ARRAY) {
            throw new Untranslatable();
        }
        if (c.type() == DriveColumn.T_BOOLEAN) {
            if (v instanceof Boolean b) {
                return b ? 1 : 0;
            }
            throw new Untranslatable();
        }
        if (c.floating()) {
            if (!(v instanceof Number n) || v instanceof BigDecimal) {
                throw new Untranslatable();
            }
            return c.type() == DriveColumn.T_FLOAT
                    ? RecordLayout.f32Key(Float.floatToIntBits(n.floatValue()))
                    : RecordLayout.f64Key(Double.doubleToLongBits(n.doubleValue()));
        }
        switch (c.logical()) {
            case DriveColumn.L_DATE -> {
                if (v instanceof java.sql.Date d) {
                    return DateTimeUtils.fromJavaDate(d);
                }
                if (v instanceof java.time.LocalDate d) {
                    return d.toEpochDay();
                }
                throw new Untranslatable();
            }
            case DriveColumn.L_TS_MILLIS, DriveColumn.L_TS_MICROS -> {
                if (v instanceof java.sql.Timestamp t) {
                    return DateTimeUtils.fromJavaTimestamp(t);
                }
                if (v instanceof java.time.Instant t) {
                    return DateTimeUtils.instantToMicros(t);
                }
                if (v instanceof java.time.LocalDateTime t) {
                    return DateTimeUtils.localDateTimeToMicros(t);
                }
                throw new Untranslatable();
            }
            case DriveColumn.L_DECIMAL -> {
                if (!(v instanceof BigDecimal d)) {
                    throw new Untranslatable();
                }
                try {
                    return d.setScale(c.scale()).unscaledValue().longValueExact();
                } catch (ArithmeticException e) {
                    throw new Untranslatable();
                }
            }
            default -> {
                if (v instanceof Integer || v instanceof Long || v instanceof Short
                        || v instanceof Byte) {
                    return ((Number) v).longValue();
                }
                throw new Untranslatable();
            }
        }
    }
}
