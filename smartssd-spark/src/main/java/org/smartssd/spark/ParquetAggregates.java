package org.smartssd.spark;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.aggregate.Max;
import org.apache.spark.sql.connector.expressions.aggregate.Min;
import org.apache.spark.sql.connector.expressions.aggregate.Sum;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.scan.parquet.DriveColumn;
import org.smartssd.scan.parquet.ParquetFooter;
import org.smartssd.spark.DriveAggregates.Kind;

/**
 * Spark's V2 aggregations of a Parquet table as parquet-scan AGGREGATE runs, one per row
 * group, whose partial groups Spark reduces (never a complete pushdown), or the reason the
 * drive does not take them. The same {@link DriveAggregates.Plan} as the row tables', its
 * keys and value being plan columns ({@link #columns}).
 *
 * <p>The drive groups by up to two integer-valued columns (BOOLEAN, integers, DATE,
 * TIMESTAMP, DECIMAL of at most 18 digits) and aggregates one such value column; it leaves
 * out a row whose key is NULL, and one whose value is NULL when SUM, MIN or MAX reads it.
 * That is Spark's NULL-ignoring COUNT(col), SUM, MIN and MAX, but not Spark's NULL group nor
 * COUNT(*) beside an aggregate of a column with NULLs: those are taken only where the
 * footers prove the column has no NULL in any row group (a required column, or every
 * chunk's statistics counting 0 NULLs). SUM is taken of integer columns only when every row
 * group's sum stays inside a LONG by the chunk statistics (rows times the largest
 * magnitude), so each partial sum is exact and Spark's final SUM keeps its overflow rule;
 * SUM of DECIMAL (Spark's sum type is wider) and of FLOAT/DOUBLE (the drive's row path has no
 * floating point) is not, nor MIN/MAX of FLOAT/DOUBLE (the drive keeps order keys: -0.0
 * would come back 0.0), nor strings (no string values in the group table).
 */
final class ParquetAggregates {
    private ParquetAggregates() {
    }

    /** A pushed aggregation over the plan columns {@code columns}, or why not ({@code plan}
     *  null). */
    record Translation(DriveAggregates.Plan plan, List<String> columns, String refusal) {
    }

    static Translation translate(Aggregation agg, StructType schema, List<ParquetFooter> footers) {
        try {
            return new Builder(schema, footers).build(agg);
        } catch (Refused e) {
            return new Translation(null, List.of(), e.getMessage());
        }
    }

    private static final class Refused extends RuntimeException {
        Refused(String why) {
            super(why, null, false, false);
        }
    }

    private static final class Builder {
        private final StructType schema;
        private final List<ParquetFooter> footers;
        private final List<String> columns = new ArrayList<>();

        Builder(StructType schema, List<ParquetFooter> footers) {
            this.schema = schema;
            this.footers = footers;
        }

        Translation build(Aggregation agg) {
            Expression[] groupBy = agg.groupByExpressions();
            if (groupBy.length > 2) {
                throw new Refused("GROUP BY " + groupBy.length + " columns: the drive groups by "
                        + "at most 2");
            }
            List<StructField> fields = new ArrayList<>();
            List<Kind> outputs = new ArrayList<>();
            List<String> described = new ArrayList<>();
            int[] keys = new int[groupBy.length];
            for (int i = 0; i < groupBy.length; i++) {
                String n = integerColumn(groupBy[i], "GROUP BY");
                if (!neverNull(n)) {
                    throw new Refused("GROUP BY " + n + ": it may be NULL, and Spark keeps a "
                            + "NULL group the drive leaves out");
                }
                keys[i] = plan(n);
                fields.add(new StructField("group_" + i, type(n), false, Metadata.empty()));
                outputs.add(Kind.values()[Kind.KEY1.ordinal() + i]);
            }
            int value = -1;
            boolean countStar = false;
            int a = 0;
            for (AggregateFunc f : agg.aggregateExpressions()) {
                String name = "agg_" + a++;
                if (f instanceof CountStar || (f instanceof Count c && !c.isDistinct()
                        && neverNull(columnName(c.column(), "COUNT")))) {
                    countStar = true;
                    outputs.add(Kind.COUNT);
                    fields.add(new StructField(name, DataTypes.LongType, false,
                            Metadata.empty()));
                    described.add(f.toString());
                    continue;
                }
                Kind kind;
                Expression arg;
                if (f instanceof Count c && !c.isDistinct()) {
                    kind = Kind.COUNT;
                    arg = c.column();
                } else if (f instanceof Sum s && !s.isDistinct()) {
                    kind = Kind.SUM;
                    arg = s.column();
                } else if (f instanceof Min m) {
                    kind = Kind.MIN;
                    arg = m.column();
                } else if (f instanceof Max m) {
                    kind = Kind.MAX;
                    arg = m.column();
                } else {
                    throw new Refused(f + ": not an aggregate the drive computes");
                }
                String n = integerColumn(arg, f.toString());
                int v = plan(n);
                if (value >= 0 && v != value) {
                    throw new Refused(f + ": the drive aggregates one value column a run, "
                            + "and " + columns.get(value) + " is already one");
                }
                value = v;
                DataType t = type(n);
                if (kind == Kind.SUM) {
                    DriveColumn c = drive(n);
                    if (c.logical() != DriveColumn.L_NONE || c.type() == DriveColumn.T_BOOLEAN) {
                        throw new Refused(f + " of " + t.simpleString() + ": Spark's sum type "
                                + "is wider than the drive's");
                    }
                    sumFitsLong(n);
                    t = DataTypes.LongType;
                } else if (kind == Kind.COUNT) {
                    t = DataTypes.LongType;
                }
                outputs.add(kind);
                fields.add(new StructField(name, t, kind != Kind.COUNT, Metadata.empty()));
                described.add(f.toString());
            }
            if (columns.isEmpty()) {
                columns.add(anyDriveColumn()); // COUNT(*) alone: the plan reads one column
            }
            if (countStar && value >= 0 && !neverNull(columns.get(value))) {
                throw new Refused("COUNT(*) beside an aggregate of " + columns.get(value)
                        + ", which may be NULL: the drive leaves out its NULL rows");
            }
            DriveAggregates.Plan p = new DriveAggregates.Plan(keys, value, List.copyOf(outputs),
                    List.copyOf(described), new StructType(fields.toArray(new StructField[0])));
            return new Translation(p, List.copyOf(columns), null);
        }

        private String anyDriveColumn() {
            for (String n : footers.get(0).columnNames()) {
                if (footers.get(0).column(n).unsupported() == null) {
                    return n;
                }
            }
            throw new Refused("no column of " + footers.get(0).path() + " the drive decodes");
        }

        private int plan(String name) {
            int i = columns.indexOf(name);
            if (i < 0) {
                columns.add(name);
                i = columns.size() - 1;
            }
            return i;
        }

        private DataType type(String name) {
            return schema.apply(name).dataType();
        }

        private DriveColumn drive(String name) {
            return ParquetAggregates.drive(name, footers);
        }

        private boolean neverNull(String name) {
            return ParquetAggregates.neverNull(name, footers);
        }

        private String columnName(Expression e, String what) {
            if (e instanceof NamedReference r && r.fieldNames().length == 1
                    && footers.get(0).columnNames().contains(r.fieldNames()[0])) {
                return r.fieldNames()[0];
            }
            throw new Refused(what + " of " + e + ": not a column of the files");
        }

        /** A column whose values the drive's group table holds: no FLOAT, DOUBLE, strings. */
        private String integerColumn(Expression e, String what) {
            String n = columnName(e, what);
            DriveColumn c = drive(n);
            if (c.floating()) {
                throw new Refused(what + " of FLOAT/DOUBLE " + n + ": the drive keeps order "
                        + "keys, -0.0 would come back 0.0");
            }
            if (c.type() == DriveColumn.T_BYTE_ARRAY) {
                throw new Refused(what + " of string " + n + ": the drive's groups hold "
                        + "integer values only");
            }
            return n;
        }

        /** Refuses a SUM the drive's 64-bit sum could wrap in some row group. */
        private void sumFitsLong(String name) {
            BigInteger max = BigInteger.valueOf(Long.MAX_VALUE);
            for (ParquetFooter f : footers) {
                for (BlockMetaData g : f.rowGroups()) {
                    Statistics<?> s = chunk(f, g, name).getStatistics();
                    if (g.getRowCount() == 0) {
                        continue;
                    }
                    if (s == null || !s.hasNonNullValue()) {
                        if (s != null && s.isNumNullsSet() && s.getNumNulls() == g.getRowCount()) {
                            continue; // all NULL: a sum of nothing
                        }
                        throw new Refused("SUM(" + name + "): " + f.path() + " has no "
                                + "statistics to bound its sum by");
                    }
                    BigInteger lo = BigInteger.valueOf(((Number) s.genericGetMin()).longValue());
                    BigInteger hi = BigInteger.valueOf(((Number) s.genericGetMax()).longValue());
                    BigInteger bound = lo.abs().max(hi.abs())
                            .multiply(BigInteger.valueOf(g.getRowCount()));
                    if (bound.compareTo(max) > 0) {
                        throw new Refused("SUM(" + name + "): a row group of " + f.path()
                                + " may sum past a LONG (" + g.getRowCount() + " rows of "
                                + lo + ".." + hi + "), which the drive would wrap");
                    }
                }
            }
        }

    }

    private static DriveColumn drive(String name, List<ParquetFooter> footers) {
        DriveColumn.Typing t = footers.get(0).column(name);
        if (t.unsupported() != null) {
            throw new Refused(t.unsupported());
        }
        return t.column();
    }

    /** Whether no row group of any file holds a NULL of {@code name}: a required column, or
     *  every chunk's statistics count 0 NULLs. */
    static boolean neverNull(String name, List<ParquetFooter> footers) {
        if (drive(name, footers).maxDefinitionLevel() == 0) {
            return true;
        }
        for (ParquetFooter f : footers) {
            for (BlockMetaData g : f.rowGroups()) {
                Statistics<?> s = chunk(f, g, name).getStatistics();
                if (s == null || !s.isNumNullsSet() || s.getNumNulls() != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static ColumnChunkMetaData chunk(ParquetFooter f, BlockMetaData g, String name) {
        return g.getColumns().get(f.column(name).column().leaf());
    }

    /**
     * Why the drive cannot rank rows by {@code name} as Spark orders them, or null: TOPN
     * ranks integer values (no strings; FLOAT/DOUBLE by order keys, whose -0.0 and 0.0 tie
     * where Spark's sort need not) and leaves out NULLs, which Spark orders first or last,
     * so the column must have none.
     */
    static String rankingRefusal(String name, List<ParquetFooter> footers) {
        if (!footers.get(0).columnNames().contains(name)) {
            return name + " is not a column of the files";
        }
        try {
            DriveColumn c = drive(name, footers);
            if (c.floating() || c.type() == DriveColumn.T_BYTE_ARRAY) {
                return "ORDER BY " + name + ": the drive ranks integer values only";
            }
            if (!neverNull(name, footers)) {
                return "ORDER BY " + name + ": it may be NULL, and the drive leaves NULLs "
                        + "out where Spark orders them";
            }
            return null;
        } catch (Refused e) {
            return e.getMessage();
        }
    }

    /** The parquet-scan ops bits of {@code p} (group-aggregate's). */
    static int ops(DriveAggregates.Plan p) {
        int bits = 0;
        for (GroupAggregate.Op op : p.ops()) {
            bits |= op.bit();
        }
        return bits;
    }
}
