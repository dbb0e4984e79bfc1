package org.smartssd.scan.parquet;

import java.util.ArrayList;
import java.util.List;

import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.io.api.Binary;
import org.smartssd.device.tasklet.Predicate;

/**
 * A parquet-scan WHERE tree as a parquet-mr predicate, for pruning row groups by their
 * statistics ({@link ParquetFooter#rowGroups(FilterPredicate)}) before any is run: the
 * planning a device job does with the tree it is given, as Spark's scan does with Spark's
 * filters.
 *
 * <p>It never drops a row group holding a row the tree holds for. A row passes the drive's
 * tree only where it is TRUE (three-valued: a leaf over NULL is UNKNOWN). {@code exact}
 * gives a predicate that every TRUE row matches and no FALSE row does (UNKNOWN rows either
 * way); AND, OR and NOT of such predicates are such predicates, parquet-mr's inverse of a
 * NOT included. {@code weaker} gives one that every TRUE row matches: an AND may leave out
 * what does not translate, which under a NOT would not be safe, so a NOT takes only an
 * exact child. Translated: comparisons on INT32 and INT64 columns (plain, DATE, DECIMAL's
 * unscaled values, TIMESTAMP in micros), BOOLEAN equality, string equality, IS NULL. Left
 * out: FLOAT and DOUBLE (the drive compares order keys), TIMESTAMP in millis (the drive
 * compares micros), prefix, suffix and contains, columns whose names hold a dot.
 */
public final class TreeStatistics {
    private TreeStatistics() {
    }

    /** The predicate, or null when nothing of the tree translates (every row group kept). */
    public static FilterPredicate of(byte[] tree, List<DriveColumn> columns) {
        Predicate p = Predicate.decode(tree);
        return p == null ? null : weaker(p, columns);
    }

    private static FilterPredicate weaker(Predicate p, List<DriveColumn> cols) {
        if (p instanceof Predicate.And a) {
            List<FilterPredicate> kept = new ArrayList<>();
            for (Predicate c : a.children()) {
                FilterPredicate f = weaker(c, cols);
                if (f != null) {
                    kept.add(f);
                }
            }
            return all(kept);
        }
        if (p instanceof Predicate.Or o) {
            List<FilterPredicate> any = new ArrayList<>();
            for (Predicate c : o.children()) {
                FilterPredicate f = weaker(c, cols);
                if (f == null) {
                    return null;
                }
                any.add(f);
            }
            return any(any);
        }
        return exact(p, cols);
    }

    private static FilterPredicate exact(Predicate p, List<DriveColumn> cols) {
        if (p instanceof Predicate.And || p instanceof Predicate.Or) {
            boolean and = p instanceof Predicate.And;
            List<FilterPredicate> parts = new ArrayList<>();
            for (Predicate c : and ? ((Predicate.And) p).children()
                    : ((Predicate.Or) p).children()) {
                FilterPredicate f = exact(c, cols);
                if (f == null) {
                    return null;
                }
                parts.add(f);
            }
            return and ? all(parts) : any(parts);
        }
        if (p instanceof Predicate.Not n) {
            FilterPredicate f = exact(n.child(), cols);
            return f == null ? null : FilterApi.not(f);
        }
        if (p instanceof Predicate.IsNull n) {
            return isNull(column(cols, n.field()));
        }
        if (p instanceof Predicate.Cmp c) {
            return compare(column(cols, c.field()), c.op(), c.constant());
        }
        Predicate.Bytes b = (Predicate.Bytes) p;
        DriveColumn col = column(cols, b.field());
        if (col == null || col.type() != DriveColumn.T_BYTE_ARRAY || b.op() != Predicate.Match.EQUALS) {
            return null;
        }
        return FilterApi.eq(FilterApi.binaryColumn(col.name()),
                Binary.fromConstantByteArray(b.bytes()));
    }

    /** The column, or null when the field is out of range or its name would not parse. */
    private static DriveColumn column(List<DriveColumn> cols, int field) {
        if (field < 0 || field >= cols.size() || cols.get(field).name().contains(".")) {
            return null;
        }
        return cols.get(field);
    }

    private static FilterPredicate isNull(DriveColumn c) {
        if (c == null) {
            return null;
        }
        String n = c.name();
        return switch (c.type()) {
            case DriveColumn.T_BOOLEAN -> FilterApi.eq(FilterApi.booleanColumn(n), null);
            case DriveColumn.T_INT32 -> FilterApi.eq(FilterApi.intColumn(n), null);
            case DriveColumn.T_INT64 -> FilterApi.eq(FilterApi.longColumn(n), null);
            case DriveColumn.T_FLOAT -> FilterApi.eq(FilterApi.floatColumn(n), null);
            case DriveColumn.T_DOUBLE -> FilterApi.eq(FilterApi.doubleColumn(n), null);
            case DriveColumn.T_BYTE_ARRAY -> FilterApi.eq(FilterApi.binaryColumn(n), null);
            default -> null;
        };
    }

    private static FilterPredicate compare(DriveColumn c, Predicate.Compare op, long v) {
        if (c == null) {
            return null;
        }
        String n = c.name();
        if (c.type() == DriveColumn.T_BOOLEAN) {
            if ((op != Predicate.Compare.EQ && op != Predicate.Compare.NE) || (v != 0 && v != 1)) {
                return null;
            }
            var col = FilterApi.booleanColumn(n);
            return op == Predicate.Compare.EQ ? FilterApi.eq(col, v == 1)
                    : FilterApi.notEq(col, v == 1);
        }
        if (c.type() == DriveColumn.T_INT32 && v == (int) v) {
            var col = FilterApi.intColumn(n);
            int x = (int) v;
            return switch (op) {
                case EQ -> FilterApi.eq(col, x);
                case NE -> FilterApi.notEq(col, x);
                case LT -> FilterApi.lt(col, x);
                case LE -> FilterApi.ltEq(col, x);
                case GT -> FilterApi.gt(col, x);
                case GE -> FilterApi.gtEq(col, x);
            };
        }
        if (c.type() == DriveColumn.T_INT64 && c.logical() != DriveColumn.L_TS_MILLIS) {
            var col = FilterApi.longColumn(n);
            return switch (op) {
                case EQ -> FilterApi.eq(col, v);
                case NE -> FilterApi.notEq(col, v);
                case LT -> FilterApi.lt(col, v);
                case LE -> FilterApi.ltEq(col, v);
                case GT -> FilterApi.gt(col, v);
                case GE -> FilterApi.gtEq(col, v);
            };
        }
        return null;
    }

    private static FilterPredicate all(List<FilterPredicate> fs) {
        if (fs.isEmpty()) {
            return null;
        }
        FilterPredicate f = fs.get(0);
        for (int i = 1; i < fs.size(); i++) {
            f = FilterApi.and(f, fs.get(i));
        }
        return f;
    }

    private static FilterPredicate any(List<FilterPredicate> fs) {
        FilterPredicate f = fs.get(0);
        for (int i = 1; i < fs.size(); i++) {
            f = FilterApi.or(f, fs.get(i));
        }
        return f;
    }
}
