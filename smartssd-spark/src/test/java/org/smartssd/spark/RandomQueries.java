package org.smartssd.spark;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Seeded random SELECTs over Parquet tables: a projection (some columns, {@code *} or
 * {@code count(*)}) and a WHERE of comparisons, IN, IS [NOT] NULL, string equality, prefix,
 * suffix and substring, combined with AND, OR and NOT, with some leaves the drive does not
 * take ({@code <=>}, string ordering, arithmetic, a decimal of a finer scale). Constants are
 * values sampled from the table, so that comparisons select some rows, and their neighbours.
 */
final class RandomQueries {
    record Query(String table, String sql, List<String> columns) {
    }

    private final Random rnd;
    private final SparkSession spark;
    private final Map<String, String> tables;
    private final List<String> names;
    private final Map<String, Table> sampled = new HashMap<>();

    /**
     * A table: its schema as Spark's own source reads it (every column nullable) and its
     * columns that hold no NULL by the connector's (a REQUIRED column: pyarrow's id).
     */
    private record Table(StructType schema, Set<String> required, List<Row> sample) {
    }

    RandomQueries(long seed, SparkSession spark, Map<String, String> tables) {
        this.rnd = new Random(seed);
        this.spark = spark;
        this.tables = tables;
        this.names = new ArrayList<>(tables.keySet());
    }

    private Table table(String name) {
        return sampled.computeIfAbsent(name, n -> {
            var df = spark.read().parquet(tables.get(n));
            Set<String> required = new java.util.HashSet<>();
            for (StructField f : spark.read().format("smartssd").load(tables.get(n)).schema()
                    .fields()) {
                if (!f.nullable()) {
                    required.add(f.name());
                }
            }
            // the sample's own seed: the same rows whatever else drew from rnd before
            return new Table(df.schema(), required, df.sample(false, 0.05, 7).collectAsList());
        });
    }

    Query next() {
        String t = names.get(rnd.nextInt(names.size()));
        Table table = table(t);
        Set<String> used = new LinkedHashSet<>();
        String where = predicate(table, used, 0);
        String select;
        int p = rnd.nextInt(10);
        if (p == 0) {
            select = "count(*)";
        } else if (p == 1) {
            select = "*";
            for (StructField f : table.schema.fields()) {
                used.add(f.name());
            }
        } else {
            List<String> cols = new ArrayList<>();
            for (int i = 1 + rnd.nextInt(4); i > 0; i--) {
                String c = table.schema.fields()[rnd.nextInt(table.schema.size())].name();
                if (!cols.contains(c)) {
                    cols.add(c);
                }
            }
            used.addAll(cols);
            select = String.join(", ", cols);
        }
        return new Query(t, "SELECT " + select + " FROM {t} WHERE " + where,
                new ArrayList<>(used));
    }

    private String predicate(Table t, Set<String> used, int depth) {
        int r = rnd.nextInt(10);
        if (depth < 3 && r < 2) {
            return "(" + predicate(t, used, depth + 1) + " AND " + predicate(t, used, depth + 1)
                    + ")";
        }
        if (depth < 3 && r < 4) {
            return "(" + predicate(t, used, depth + 1) + " OR " + predicate(t, used, depth + 1)
                    + ")";
        }
        if (depth < 3 && r < 5) {
            return "NOT " + predicate(t, used, depth + 1);
        }
        StructField f = t.schema.fields()[rnd.nextInt(t.schema.size())];
        used.add(f.name());
        return leaf(t, f);
    }

    private static final String[] COMPARE = {"=", "<>", "<", "<=", ">", ">="};

    private String leaf(Table t, StructField f) {
        String c = f.name();
        DataType type = f.dataType();
        int r = rnd.nextInt(20);
        if (r <= 2 && t.required.contains(c)) {
            // on a column that holds no NULL the connector's relation folds IS [NOT] NULL and
            // <=>, Spark's own source (its columns all nullable) does not: their offered
            // filters would differ, not for the drive's sake
            r = 3 + rnd.nextInt(17);
        }
        if (r == 0) {
            return c + " IS NULL";
        }
        if (r == 1) {
            return c + " IS NOT NULL";
        }
        if (r == 2) {
            return c + " <=> " + constant(t, f);
        }
        if (type instanceof BooleanType) {
            return switch (rnd.nextInt(3)) {
                case 0 -> c;
                case 1 -> "NOT " + c;
                default -> c + " = " + rnd.nextBoolean();
            };
        }
        if (r == 3 || r == 4) {
            StringBuilder in = new StringBuilder(c + " IN (");
            for (int i = 1 + rnd.nextInt(4); i > 0; i--) {
                in.append(constant(t, f)).append(i > 1 ? ", " : ")");
            }
            return in.toString();
        }
        if (type instanceof StringType) {
            String v = value(t, f) instanceof String s ? s : "smart";
            int cut = Math.min(v.length(), 1 + rnd.nextInt(3));
            return switch (r % 6) {
                case 0 -> c + " LIKE '" + quote(v.substring(0, cut)) + "%'";
                case 1 -> c + " LIKE '%" + quote(v.substring(v.length() - cut)) + "'";
                case 2 -> c + " LIKE '%" + quote(v.substring(v.length() / 2,
                        Math.min(v.length(), v.length() / 2 + cut))) + "%'";
                case 3 -> c + " > " + constant(t, f);
                default -> c + " = " + constant(t, f);
            };
        }
        if (r == 5 && value(t, f) instanceof BigDecimal d) {
            // a constant of a finer scale: Spark casts the column, so nothing is offered
            return c + " < " + d.toPlainString() + "1";
        }
        if (r == 6 && (type.typeName().equals("long") || type.typeName().equals("integer"))) {
            return c + " % 7 = " + rnd.nextInt(7);
        }
        return c + " " + COMPARE[rnd.nextInt(COMPARE.length)] + " " + constant(t, f);
    }

    /** A value of the column from the sample (not NULL when the sample has one). */
    private Object value(Table t, StructField f) {
        int i = t.schema.fieldIndex(f.name());
        for (int tries = 0; tries < 20; tries++) {
            Row row = t.sample.get(rnd.nextInt(t.sample.size()));
            if (!row.isNullAt(i)) {
                return row.get(i);
            }
        }
        return null;
    }

    /** A SQL constant of the column's type: a sampled value, or one next to it. */
    private String constant(Table t, StructField f) {
        Object v = value(t, f);
        boolean near = rnd.nextInt(4) == 0;
        if (v == null) {
            return "NULL";
        }
        if (v instanceof String s) {
            return "'" + quote(near ? s + "x" : s) + "'";
        }
        if (v instanceof Long l) {
            return Long.toString(near ? l + 1 : l);
        }
        if (v instanceof Integer n) {
            return Integer.toString(near ? n - 1 : n);
        }
        if (v instanceof Short n) {
            return Short.toString(n);
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof java.sql.Date d) {
            return "DATE '" + d.toLocalDate().plusDays(near ? 1 : 0) + "'";
        }
        if (v instanceof java.sql.Timestamp ts) {
            return "TIMESTAMP '" + ts + "'";
        }
        if (v instanceof java.time.LocalDateTime ts) {
            return "TIMESTAMP_NTZ '" + ts.toString().replace('T', ' ') + "'";
        }
        if (f.dataType() instanceof DoubleType) {
            return "CAST('" + v + "' AS DOUBLE)";
        }
        if (f.dataType() instanceof FloatType) {
            return "CAST('" + v + "' AS FLOAT)";
        }
        if (v instanceof Boolean b) {
            return b.toString();
        }
        throw new IllegalStateException("no constant for " + f + " from " + v.getClass());
    }

    private static String quote(String s) {
        return s.replace("\\", "\\\\").replace("'", "\\'");
    }
}
