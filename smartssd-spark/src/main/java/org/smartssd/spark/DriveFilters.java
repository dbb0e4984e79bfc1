package org.smartssd.spark;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.spark.sql.connector.expressions.Cast;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.unsafe.types.UTF8String;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.tasklet.Predicate.Compare;
import org.smartssd.device.tasklet.Predicate.Match;
import org.smartssd.spark.TableLayout.Column;

/**
 * Spark's V2 predicates as the drive's filter trees, exactly or not at all (the analogue of
 * Iceberg's {@code SparkV2Filters}). Stateless.
 *
 * <p>A fixed-width field is NULL where its null flag is set (and never without one); a text
 * column is NULL where the line lacks it or its number does not parse. The drive's leaves
 * on a NULL are unknown (its logic is SQL's) and its IS NULL leaf is "column has no value"
 * ({@link #hasValue}). Each
 * expression is translated to two drive conditions: when it is TRUE and when it is FALSE
 * (SQL's three values: neither means NULL). NOT swaps them, AND/OR combine them by Kleene's
 * tables, and the pushed filter is the TRUE condition. Comparisons against constants outside
 * a field's values fold to TRUE or FALSE before they reach the drive, which compares
 * unsigned fields unsigned.
 */
final class DriveFilters {
    private DriveFilters() {
    }

    /** A condition on one record: always, never, or a drive predicate. */
    sealed interface Cond {
        Cond TRUE = new Const(true);
        Cond FALSE = new Const(false);
    }

    record Const(boolean value) implements Cond {
    }

    record Tree(org.smartssd.device.tasklet.Predicate p) implements Cond {
    }

    /** When an expression is TRUE, and when FALSE. */
    record Tri(Cond isTrue, Cond isFalse) {
        Tri not() {
            return new Tri(isFalse, isTrue);
        }

        static Tri of(Cond isTrue) {
            return new Tri(isTrue, DriveFilters.not(isTrue));
        }

        static final Tri NULL = new Tri(Cond.FALSE, Cond.FALSE);
    }

    /**
     * The drive condition under which {@code p} is TRUE, or empty when some part of it has no
     * exact drive equivalent.
     */
    static Optional<Cond> translate(Predicate p, TableLayout layout) {
        try {
            return Optional.of(tri(p, layout).isTrue());
        } catch (Unsupported e) {
            return Optional.empty();
        }
    }

    /** The conjunction of conditions. */
    static Cond and(List<Cond> conds) {
        List<org.smartssd.device.tasklet.Predicate> trees = new ArrayList<>();
        for (Cond c : conds) {
            if (c instanceof Const k) {
                if (!k.value()) {
                    return Cond.FALSE;
                }
            } else {
                Tree t = (Tree) c;
                if (t.p() instanceof org.smartssd.device.tasklet.Predicate.And a) {
                    trees.addAll(a.children());
                } else {
                    trees.add(t.p());
                }
            }
        }
        if (trees.isEmpty()) {
            return Cond.TRUE;
        }
        return new Tree(trees.size() == 1 ? trees.get(0)
                : new org.smartssd.device.tasklet.Predicate.And(trees));
    }

    static Cond or(List<Cond> conds) {
        List<org.smartssd.device.tasklet.Predicate> trees = new ArrayList<>();
        for (Cond c : conds) {
            if (c instanceof Const k) {
                if (k.value()) {
                    return Cond.TRUE;
                }
            } else {
                Tree t = (Tree) c;
                if (t.p() instanceof org.smartssd.device.tasklet.Predicate.Or o) {
                    trees.addAll(o.children());
                } else {
                    trees.add(t.p());
                }
            }
        }
        if (trees.isEmpty()) {
            return Cond.FALSE;
        }
        return new Tree(trees.size() == 1 ? trees.get(0)
                : new org.smartssd.device.tasklet.Predicate.Or(trees));
    }

    static Cond not(Cond c) {
        if (c instanceof Const k) {
            return k.value() ? Cond.FALSE : Cond.TRUE;
        }
        org.smartssd.device.tasklet.Predicate p = ((Tree) c).p();
        if (p instanceof org.smartssd.device.tasklet.Predicate.Not n) {
            return new Tree(n.child());
        }
        return new Tree(new org.smartssd.device.tasklet.Predicate.Not(p));
    }

    /**
     * The drive tree of a condition; FALSE as a comparison no value meets (the drive has no
     * constants), TRUE as null (no tree: every record).
     */
    static org.smartssd.device.tasklet.Predicate tree(Cond c, TableLayout layout) {
        if (c instanceof Tree t) {
            return t.p();
        }
        if (((Const) c).value()) {
            return null;
        }
        for (int i = 0; i < layout.columns().size(); i++) {
            Column col = layout.columns().get(i);
            if (!col.isBytes()) {
                return new org.smartssd.device.tasklet.Predicate.Cmp(Compare.LT, i,
                        col.min().longValue());
            }
        }
        // every field is bytes: starts with "" and does not (a text column may be missing, so
        // NOT alone could hold)
        org.smartssd.device.tasklet.Predicate any =
                new org.smartssd.device.tasklet.Predicate.Bytes(Match.PREFIX, 0, new byte[0]);
        return new org.smartssd.device.tasklet.Predicate.And(List.of(any,
                new org.smartssd.device.tasklet.Predicate.Not(any)));
    }

    /**
     * The condition under which column {@code f} has a value: always for a column never NULL,
     * else NOT (f IS NULL), which is never unknown.
     */
    static Cond hasValue(int f, Column c) {
        if (!c.nullable()) {
            return Cond.TRUE;
        }
        return not(new Tree(new org.smartssd.device.tasklet.Predicate.IsNull(f)));
    }

    /** A comparison of column {@code f} that is TRUE under {@code isTrue} where it has a value,
     *  NULL where it has none. */
    private static Tri onValue(int f, Column c, Cond isTrue) {
        Cond v = hasValue(f, c);
        return new Tri(and(List.of(v, isTrue)), and(List.of(v, not(isTrue))));
    }

    private static final class Unsupported extends Exception {
        Unsupported() {
            super(null, null, false, false);
        }
    }

    private static Tri tri(Predicate p, TableLayout layout) throws Unsupported {
        Expression[] ch = p.children();
        switch (p.name()) {
            case "ALWAYS_TRUE":
                return Tri.of(Cond.TRUE);
            case "ALWAYS_FALSE":
                return Tri.of(Cond.FALSE);
            case "AND": {
                Tri a = tri(pred(ch[0]), layout);
                Tri b = tri(pred(ch[1]), layout);
                return new Tri(and(List.of(a.isTrue(), b.isTrue())),
                        or(List.of(a.isFalse(), b.isFalse())));
            }
            case "OR": {
                Tri a = tri(pred(ch[0]), layout);
                Tri b = tri(pred(ch[1]), layout);
                return new Tri(or(List.of(a.isTrue(), b.isTrue())),
                        and(List.of(a.isFalse(), b.isFalse())));
            }
            case "NOT":
                return tri(pred(ch[0]), layout).not();
            case "IS_NULL": {
                int f = column(ch[0], layout);
                return Tri.of(hasValue(f, layout.columns().get(f))).not();
            }
            case "IS_NOT_NULL": {
                int f = column(ch[0], layout);
                return Tri.of(hasValue(f, layout.columns().get(f)));
            }
            case "=", "<>", "<", "<=", ">", ">=", "<=>":
                return comparison(p.name(), ch[0], ch[1], layout);
            case "IN":
                return in(ch, layout);
            case "STARTS_WITH":
                return bytesMatch(Match.PREFIX, ch, layout);
            case "CONTAINS":
                return bytesMatch(Match.CONTAINS, ch, layout);
            case "ENDS_WITH":
                return bytesMatch(Match.SUFFIX, ch, layout);
            default:
                throw new Unsupported();
        }
    }

    private static Predicate pred(Expression e) throws Unsupported {
        if (e instanceof Predicate p) {
            return p;
        }
        throw new Unsupported();
    }

    /** The layout index of a column reference, seen through value-preserving casts. */
    private static int column(Expression e, TableLayout layout) throws Unsupported {
        if (e instanceof Cast c) {
            int i = column(c.expression(), layout);
            if (!holdsAll(c.dataType(), layout.columns().get(i))) {
                throw new Unsupported();
            }
            return i;
        }
        if (e instanceof NamedReference r && r.fieldNames().length == 1) {
            int i = layout.indexOf(r.fieldNames()[0]);
            if (i >= 0) {
                return i;
            }
        }
        throw new Unsupported();
    }

    /** Whether a cast of the column to {@code t} keeps every value (a widening cast). */
    private static boolean holdsAll(DataType t, Column c) {
        if (c.isBytes()) {
            return t instanceof StringType st && st.equals(org.apache.spark.sql.types.DataTypes.StringType);
        }
        if (c.field().type() == FieldType.DECIMAL) {
            return t instanceof DecimalType d && d.scale() >= c.field().width()
                    && d.precision() - d.scale() >= c.precision() - c.field().width();
        }
        if (c.field().type().typed()) {
            return t.equals(c.sparkType()); // a float's values compare as the drive's keys
        }
        BigInteger lo;
        BigInteger hi;
        if (t instanceof ByteType) {
            lo = BigInteger.valueOf(Byte.MIN_VALUE);
            hi = BigInteger.valueOf(Byte.MAX_VALUE);
        } else if (t instanceof ShortType) {
            lo = BigInteger.valueOf(Short.MIN_VALUE);
            hi = BigInteger.valueOf(Short.MAX_VALUE);
        } else if (t instanceof IntegerType) {
            lo = BigInteger.valueOf(Integer.MIN_VALUE);
            hi = BigInteger.valueOf(Integer.MAX_VALUE);
        } else if (t instanceof LongType) {
            lo = BigInteger.valueOf(Long.MIN_VALUE);
            hi = BigInteger.valueOf(Long.MAX_VALUE);
        } else if (t instanceof DecimalType d) {
            hi = BigInteger.TEN.pow(d.precision() - d.scale()).subtract(BigInteger.ONE);
            lo = hi.negate();
        } else {
            return false;
        }
        return lo.compareTo(c.min()) <= 0 && hi.compareTo(c.max()) >= 0;
    }

    private static boolean isLiteral(Expression e) {
        return e instanceof Literal<?>;
    }

    private static Tri comparison(String op, Expression l, Expression r, TableLayout layout)
            throws Unsupported {
        if (isLiteral(l) && !isLiteral(r)) {
            return comparison(flip(op), r, l, layout);
        }
        if (!isLiteral(r)) {
            throw new Unsupported();
        }
        int f = column(l, layout);
        Column c = layout.columns().get(f);
        Object v = ((Literal<?>) r).value();
        if (v == null) {
            // x <=> NULL is x IS NULL
            return op.equals("<=>") ? Tri.of(hasValue(f, c)).not() : Tri.NULL;
        }
        Cond isTrue;
        if (c.isBytes()) {
            if (!(v instanceof UTF8String s) || !(op.equals("=") || op.equals("<=>")
                    || op.equals("<>"))) {
                throw new Unsupported();
            }
            Cond eq = bytesLeaf(Match.EQUALS, f, layout, s.getBytes());
            isTrue = op.equals("<>") ? not(eq) : eq;
        } else {
            isTrue = compareValue(op.equals("<=>") ? "=" : op, f, c, v);
        }
        if (op.equals("<=>")) {
            // never NULL: FALSE where the column has no value
            Cond t = and(List.of(hasValue(f, c), isTrue));
            return Tri.of(t);
        }
        return onValue(f, c, isTrue);
    }

    private static String flip(String op) {
        return switch (op) {
            case "<" -> ">";
            case "<=" -> ">=";
            case ">" -> "<";
            case ">=" -> "<=";
            default -> op;
        };
    }

    private static BigDecimal number(Object v) throws Unsupported {
        if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof Decimal d) {
            return d.toJavaBigDecimal();
        }
        throw new Unsupported();
    }

    /**
     * {@code column op v} for a literal {@code v}: a float column's leaf on the literal's order
     * key (a literal of the column's own type only), a DECIMAL column's on its unscaled value.
     */
    static Cond compareValue(String op, int f, Column c, Object v) throws Unsupported {
        if (c.isFloat()) {
            long key;
            if (c.field().type() == FieldType.F64 && v instanceof Double d) {
                key = RecordLayout.f64Key(Double.doubleToRawLongBits(d));
            } else if (c.field().type() == FieldType.F32 && v instanceof Float x) {
                key = RecordLayout.f32Key(Float.floatToRawIntBits(x));
            } else {
                throw new Unsupported();
            }
            Compare cmp = switch (op) {
                case "=" -> Compare.EQ;
                case "<>" -> Compare.NE;
                case "<" -> Compare.LT;
                case "<=" -> Compare.LE;
                case ">" -> Compare.GT;
                case ">=" -> Compare.GE;
                default -> throw new Unsupported();
            };
            return new Tree(new org.smartssd.device.tasklet.Predicate.Cmp(cmp, f, key));
        }
        BigDecimal k = number(v);
        if (c.field().type() == FieldType.DECIMAL) {
            k = k.movePointRight(c.field().width());
        }
        return compare(op, f, c, k);
    }

    /** {@code column op k} on an integer column, folded where k is outside its values. */
    static Cond compare(String op, int f, Column c, BigDecimal k) throws Unsupported {
        BigInteger lo = c.min();
        BigInteger hi = c.max();
        boolean integral = k.stripTrailingZeros().scale() <= 0;
        BigInteger floor = k.setScale(0, java.math.RoundingMode.FLOOR).toBigIntegerExact();
        BigInteger ceil = k.setScale(0, java.math.RoundingMode.CEILING).toBigIntegerExact();
        switch (op) {
            case "=":
                return integral ? eq(Compare.EQ, f, floor, lo, hi, false) : Cond.FALSE;
            case "<>":
                return integral ? eq(Compare.NE, f, floor, lo, hi, true) : Cond.TRUE;
            case "<": // x < k  <=>  x <= ceil(k) - 1
                return le(f, ceil.subtract(BigInteger.ONE), lo, hi);
            case "<=": // x <= floor(k)
                return le(f, floor, lo, hi);
            case ">": // x > k  <=>  x >= floor(k) + 1
                return ge(f, floor.add(BigInteger.ONE), lo, hi);
            case ">=":
                return ge(f, ceil, lo, hi);
            default:
                throw new Unsupported();
        }
    }

    private static Cond eq(Compare op, int f, BigInteger k, BigInteger lo, BigInteger hi,
                           boolean outside) {
        if (k.compareTo(lo) < 0 || k.compareTo(hi) > 0) {
            return outside ? Cond.TRUE : Cond.FALSE;
        }
        return new Tree(new org.smartssd.device.tasklet.Predicate.Cmp(op, f, k.longValue()));
    }

    private static Cond le(int f, BigInteger k, BigInteger lo, BigInteger hi) {
        if (k.compareTo(lo) < 0) {
            return Cond.FALSE;
        }
        if (k.compareTo(hi) >= 0) {
            return Cond.TRUE;
        }
        return new Tree(new org.smartssd.device.tasklet.Predicate.Cmp(Compare.LE, f,
                k.longValue()));
    }

    private static Cond ge(int f, BigInteger k, BigInteger lo, BigInteger hi) {
        if (k.compareTo(hi) > 0) {
            return Cond.FALSE;
        }
        if (k.compareTo(lo) <= 0) {
            return Cond.TRUE;
        }
        return new Tree(new org.smartssd.device.tasklet.Predicate.Cmp(Compare.GE, f,
                k.longValue()));
    }

    /** {@code x IN (v...)}: TRUE when x equals a value, else NULL when a value is NULL. */
    private static Tri in(Expression[] ch, TableLayout layout) throws Unsupported {
        int f = column(ch[0], layout);
        Column c = layout.columns().get(f);
        List<Cond> eqs = new ArrayList<>();
        boolean hasNull = false;
        for (int i = 1; i < ch.length; i++) {
            if (!isLiteral(ch[i])) {
                throw new Unsupported();
            }
            Object v = ((Literal<?>) ch[i]).value();
            if (v == null) {
                hasNull = true;
            } else if (c.isBytes()) {
                if (!(v instanceof UTF8String s)) {
                    throw new Unsupported();
                }
                eqs.add(bytesLeaf(Match.EQUALS, f, layout, s.getBytes()));
            } else {
                eqs.add(compareValue("=", f, c, v));
            }
        }
        Tri t = onValue(f, c, or(eqs));
        return hasNull ? new Tri(t.isTrue(), Cond.FALSE) : t;
    }

    private static Tri bytesMatch(Match m, Expression[] ch, TableLayout layout)
            throws Unsupported {
        int f = column(ch[0], layout);
        if (!layout.columns().get(f).isBytes() || !isLiteral(ch[1])) {
            throw new Unsupported();
        }
        Object v = ((Literal<?>) ch[1]).value();
        if (v == null) {
            return Tri.NULL;
        }
        if (!(v instanceof UTF8String s)) {
            throw new Unsupported();
        }
        return onValue(f, layout.columns().get(f), bytesLeaf(m, f, layout, s.getBytes()));
    }

    /** Most SUFFIX leaves one ENDS_WITH on a fixed-width field becomes (one per padding). */
    static final int MAX_SUFFIX_PADDINGS = 16;

    /**
     * Match {@code m} of {@code v} against the value of bytes column {@code f}. A text
     * column's bytes are its value. A fixed-width field's value is its bytes without the
     * trailing NUL padding ({@link Values#unpaddedLength}), while the drive matches the
     * field's W bytes, so: equality is the drive's equality with {@code v} padded to W (never,
     * when {@code v} ends in NUL or is longer than W); a prefix or substring not ending in
     * NUL occurs in the value exactly when it occurs in the field; a suffix is the value's
     * when the field ends with it followed by k NULs, for one k in 0..W - |v|. Literals
     * ending in NUL in a prefix, substring or suffix stay in Spark.
     */
    private static Cond bytesLeaf(Match m, int f, TableLayout layout, byte[] v)
            throws Unsupported {
        if (layout.isText()) {
            return new Tree(new org.smartssd.device.tasklet.Predicate.Bytes(m, f, v));
        }
        int w = layout.columns().get(f).field().width();
        boolean endsInNul = v.length > 0 && v[v.length - 1] == 0;
        if (m == Match.EQUALS) {
            return endsInNul || v.length > w ? Cond.FALSE
                    : new Tree(new org.smartssd.device.tasklet.Predicate.Bytes(m, f,
                            java.util.Arrays.copyOf(v, w)));
        }
        if (v.length == 0) {
            return Cond.TRUE;
        }
        if (endsInNul) {
            throw new Unsupported();
        }
        if (v.length > w) {
            return Cond.FALSE;
        }
        if (m != Match.SUFFIX) {
            return new Tree(new org.smartssd.device.tasklet.Predicate.Bytes(m, f, v));
        }
        if (w - v.length + 1 > MAX_SUFFIX_PADDINGS) {
            throw new Unsupported();
        }
        List<Cond> endings = new ArrayList<>();
        for (int k = 0; v.length + k <= w; k++) {
            endings.add(new Tree(new org.smartssd.device.tasklet.Predicate.Bytes(Match.SUFFIX, f,
                    java.util.Arrays.copyOf(v, v.length + k))));
        }
        return or(endings);
    }
}
