package org.smartssd.spark;

import java.io.Serializable;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.aggregate.Max;
import org.apache.spark.sql.connector.expressions.aggregate.Min;
import org.apache.spark.sql.connector.expressions.aggregate.Sum;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.spark.TableLayout.Column;

/**
 * Spark's V2 aggregations as one group-aggregate run of the drive, or none (the analogue of
 * Iceberg's {@code SparkAggregates}). Stateless.
 *
 * <p>The drive groups by up to four integer fields (keys 2..4 packed into 64 bits) and
 * aggregates one integer value field:
 * COUNT(*), COUNT(col) (fields are never NULL, so both count records), SUM, MIN and MAX of
 * that field. AVG is not taken here: Spark then asks for SUM and COUNT and divides itself.
 * The drive sums modulo 2^64; a SUM is pushed only when no partition can hold enough
 * records to leave the range of a Spark LONG, so every partial sum the drive returns is the
 * exact one and Spark's own final SUM (ANSI overflow checks included) sees exact inputs.
 *
 * <p>Text columns and fixed-width fields with a null flag can be NULL, and the drive skips a
 * record whose key or value is NULL: exactly Spark's NULL-ignoring COUNT(col), SUM, MIN and
 * MAX of that one column, but not COUNT(*) beside them (it would lose those records) nor
 * GROUP BY a nullable key (Spark keeps a NULL group). So on text the drive takes aggregates
 * without GROUP BY, and a nullable column is neither a key nor a value beside COUNT(*).
 *
 * <p>Typed fields: MIN and MAX of FLOAT and DOUBLE fold the drive's order keys, which is
 * Spark's order (NaN above every number, -0.0 = 0.0); SUM of them is the drive's double sum
 * (Spark's SUM type, DOUBLE), taken only where a partition's sum is exact in any order is not
 * required: Spark's own sum of doubles depends on the order too. SUM of a 64-bit integer is
 * taken with Spark's overflow rule: under {@code spark.sql.ansi.enabled} (Spark 4's default)
 * the drive's checked sum fails the query past a LONG, otherwise it wraps as Spark's does.
 * SUM of DECIMAL, DATE and TIMESTAMP is not pushed (Spark widens a DECIMAL's sum past 64
 * bits); MIN and MAX of them are.
 */
final class DriveAggregates {
    private DriveAggregates() {
    }

    /** What one output column of a pushed aggregation is. */
    enum Kind { KEY1, KEY2, KEY3, KEY4, COUNT, SUM, MIN, MAX }

    /** A pushed aggregation: key and value fields, and the output columns in Spark's order. */
    record Plan(int[] keys, int value, List<Kind> outputs, List<String> described,
                StructType schema, boolean checkedSum) implements Serializable {
        Plan(int[] keys, int value, List<Kind> outputs, List<String> described,
             StructType schema) {
            this(keys, value, outputs, described, schema, false);
        }

        GroupAggregate.Op[] ops() {
            List<GroupAggregate.Op> ops = new ArrayList<>();
            ops.add(GroupAggregate.Op.COUNT);
            if (checkedSum) {
                ops.add(GroupAggregate.Op.CHECKED_SUM);
            }
            if (value >= 0 && !outputs.contains(Kind.SUM) && !outputs.contains(Kind.MIN)
                    && !outputs.contains(Kind.MAX)) {
                // COUNT(col) of a text column: a value op makes the drive read the column and
                // skip the lines where it is NULL; the minimum itself is not used
                ops.add(GroupAggregate.Op.MIN);
            }
            if (outputs.contains(Kind.SUM)) {
                ops.add(GroupAggregate.Op.SUM);
            }
            if (outputs.contains(Kind.MIN)) {
                ops.add(GroupAggregate.Op.MIN);
            }
            if (outputs.contains(Kind.MAX)) {
                ops.add(GroupAggregate.Op.MAX);
            }
            return ops.toArray(new GroupAggregate.Op[0]);
        }

        boolean global() {
            return keys.length == 0;
        }
    }

    /**
     * The drive plan of {@code agg}, or empty when the drive cannot compute it exactly.
     *
     * @param maxRecordsPerPartition most records any one partition can hold
     */
    static Optional<Plan> translate(Aggregation agg, TableLayout layout,
                                    long maxRecordsPerPartition) {
        Expression[] groupBy = agg.groupByExpressions();
        if (groupBy.length > GroupAggregate.MAX_KEYS || (layout.isText() && groupBy.length > 0)) {
            return Optional.empty();
        }
        boolean checkedSum = false;
        boolean countStar = false;
        List<StructField> fields = new ArrayList<>();
        List<Kind> outputs = new ArrayList<>();
        List<String> described = new ArrayList<>();
        int[] keys = new int[groupBy.length];
        for (int i = 0; i < groupBy.length; i++) {
            int k = intColumn(groupBy[i], layout);
            if (k < 0) {
                return Optional.empty();
            }
            keys[i] = k;
            Column c = layout.columns().get(k);
            if (c.nullable()) {
                return notPushed(agg, "GROUP BY " + c.name() + ": Spark keeps a NULL group, "
                        + "the drive skips records whose key is NULL");
            }
            fields.add(new StructField("group_" + i, c.sparkType(), false, Metadata.empty()));
            outputs.add(Kind.values()[Kind.KEY1.ordinal() + i]);
        }
        if (keys.length >= 3 && packedBits(layout, keys, 1) > 64) {
            return Optional.empty(); // the drive packs keys 2..n into 64 bits
        }
        int value = -1;
        int n = 0;
        for (AggregateFunc f : agg.aggregateExpressions()) {
            String name = "agg_" + n++;
            if (f instanceof CountStar) {
                countStar = true;
                outputs.add(Kind.COUNT);
                fields.add(new StructField(name, DataTypes.LongType, false, Metadata.empty()));
                described.add("COUNT(*)");
                continue;
            }
            if (f instanceof Count c && !c.isDistinct()) {
                if (columnIndex(c.column(), layout) < 0) {
                    return Optional.empty();
                }
                if (layout.columns().get(columnIndex(c.column(), layout)).nullable()) {
                    int v = intColumn(c.column(), layout);
                    if (v < 0 || (value >= 0 && v != value)) {
                        return Optional.empty(); // counted by the one value column's parse
                    }
                    value = v;
                }
                outputs.add(Kind.COUNT);
                fields.add(new StructField(name, DataTypes.LongType, false, Metadata.empty()));
                described.add(c.toString());
                continue;
            }
            Expression arg;
            Kind kind;
            if (f instanceof Sum s && !s.isDistinct()) {
                arg = s.column();
                kind = Kind.SUM;
            } else if (f instanceof Min m) {
                arg = m.column();
                kind = Kind.MIN;
            } else if (f instanceof Max m) {
                arg = m.column();
                kind = Kind.MAX;
            } else {
                return Optional.empty();
            }
            int v = intColumn(arg, layout);
            if (v < 0 || (value >= 0 && v != value)) {
                return Optional.empty(); // the drive aggregates one value field per run
            }
            value = v;
            Column c = layout.columns().get(v);
            DataType t;
            if (kind == Kind.SUM && c.isFloat()) {
                t = DataTypes.DoubleType;
            } else if (kind == Kind.SUM) {
                if (c.field().type().typed()) {
                    return notPushed(agg, "SUM(" + c.name() + ") of " + c.sparkType()
                            .simpleString() + ": Spark's sum type is wider than the drive's");
                }
                if (!sumFitsLong(c, maxRecordsPerPartition)) {
                    if (c.valueBits() < 64 || !c.signed()) {
                        return notPushed(agg, "SUM(" + c.name() + "): an unsigned 64-bit sum "
                                + "is a DECIMAL(20,0) in Spark");
                    }
                    // Spark's rule for a LONG sum: ANSI fails past its range, else it wraps,
                    // and a wrapping sum modulo 2^64 does not depend on the order
                    checkedSum = SQLConf.get().ansiEnabled();
                }
                t = DataTypes.LongType;
            } else {
                t = c.sparkType();
            }
            outputs.add(kind);
            fields.add(new StructField(name, t, true, Metadata.empty()));
            described.add(f.toString());
        }
        if (countStar && value >= 0 && layout.columns().get(value).nullable()) {
            return notPushed(agg, "COUNT(*) beside an aggregate of nullable "
                    + layout.columns().get(value).name() + ": the drive skips its NULLs");
        }
        return Optional.of(new Plan(keys, value, List.copyOf(outputs), List.copyOf(described),
                new StructType(fields.toArray(new StructField[0])), checkedSum));
    }

    private static final org.slf4j.Logger LOG =
            org.slf4j.LoggerFactory.getLogger(DriveAggregates.class);

    /** Empty, logging why the drive does not take {@code agg} (Spark computes it). */
    private static Optional<Plan> notPushed(Aggregation agg, String why) {
        LOG.info("aggregate {} is not pushed to the drive: {}",
                java.util.Arrays.toString(agg.aggregateExpressions()), why);
        return Optional.empty();
    }

    /** Bits of keys {@code from..} as the drive packs them (3 or 4 keys). */
    static int packedBits(TableLayout layout, int[] keys, int from) {
        int bits = 0;
        for (int i = from; i < keys.length; i++) {
            bits += GroupAggregate.packedBits(layout.recordLayout(), keys[i]);
        }
        return bits;
    }

    /**
     * Key {@code i} (0-based) of a group as the drive returned it: keys 2..n of 3 or 4 are
     * unpacked from key2, key 2 highest; a signed key is sign-extended from its bits.
     */
    static long key(TableLayout layout, int[] keys, int i, long key1, long key2) {
        if (i == 0) {
            return key1;
        }
        if (keys.length <= 2) {
            return key2;
        }
        int bits = GroupAggregate.packedBits(layout.recordLayout(), keys[i]);
        long v = key2 >>> packedBits(layout, keys, i + 1);
        if (bits < 64) {
            v &= (1L << bits) - 1;
            if (layout.columns().get(keys[i]).signed()) {
                v = (v << (64 - bits)) >> (64 - bits);
            }
        }
        return v;
    }

    /**
     * Whether the sum of any partition's values of {@code c} is inside a Spark LONG, which
     * makes the drive's 64-bit sum exact: records per partition times the largest magnitude.
     */
    static boolean sumFitsLong(Column c, long maxRecords) {
        if (c.sparkType() instanceof DecimalType) {
            return false;
        }
        BigInteger magnitude = c.max().max(c.min().negate());
        BigInteger bound = magnitude.multiply(BigInteger.valueOf(Math.max(1, maxRecords)));
        return bound.compareTo(BigInteger.valueOf(Long.MAX_VALUE)) <= 0;
    }

    private static int columnIndex(Expression e, TableLayout layout) {
        if (e instanceof NamedReference r && r.fieldNames().length == 1) {
            return layout.indexOf(r.fieldNames()[0]);
        }
        return -1;
    }

    private static int intColumn(Expression e, TableLayout layout) {
        int i = columnIndex(e, layout);
        return i >= 0 && !layout.columns().get(i).isBytes() ? i : -1;
    }
}
