package org.smartssd.spark;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.analysis.UnresolvedAttribute;
import org.apache.spark.sql.catalyst.expressions.BoundReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.InterpretedPredicate;
import org.apache.spark.sql.catalyst.expressions.V2ExpressionUtils;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.smartssd.device.tasklet.GroupAggregate;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractPartialFunction;

/**
 * The pushed work of a Parquet read done on the host over the rows Spark's own Parquet reader
 * gives ({@code hostSchema}: the required columns, then the others the work reads): the
 * pushed filters evaluated by Spark's own expressions, then what the drive would have done,
 * with the drive's rules (group-aggregate's items and merge, top-n's ranking on wire values,
 * ties to the earlier row; a row with a NULL key or value left out as the drive leaves it).
 */
final class ParquetHostWork {
    private final ParquetReadPlan plan;
    private final InterpretedPredicate where;

    ParquetHostWork(ParquetReadPlan plan) {
        this.plan = plan;
        this.where = predicate(plan.hostFilters(), plan.hostSchema());
    }

    /** The filters as one Spark predicate over rows of {@code schema}; null when none. */
    static InterpretedPredicate predicate(Filter[] filters, StructType schema) {
        Expression all = null;
        for (Filter f : filters) {
            scala.Option<Expression> e = V2ExpressionUtils.toCatalyst(f.toV2());
            if (e.isEmpty()) {
                throw new IllegalStateException("the pushed filter " + f + " has no Spark "
                        + "expression to run it on the host");
            }
            Expression bound = e.get().transform(new AbstractPartialFunction<>() {
                @Override
                public boolean isDefinedAt(Expression x) {
                    return x instanceof UnresolvedAttribute;
                }

                @Override
                public Expression apply(Expression x) {
                    List<String> parts = CollectionConverters.asJava(
                            ((UnresolvedAttribute) x).nameParts());
                    int i = schema.fieldIndex(String.join(".", parts));
                    StructField field = schema.fields()[i];
                    return new BoundReference(i, field.dataType(), field.nullable());
                }
            });
            all = all == null ? bound
                    : new org.apache.spark.sql.catalyst.expressions.And(all, bound);
        }
        if (all == null) {
            return null;
        }
        InterpretedPredicate p = new InterpretedPredicate(all);
        p.initialize(0);
        return p;
    }

    /**
     * The rows of the read schema from {@code rows}, the host's reading of the partition's
     * row groups: streamed for rows (the partition may hold many row groups), collected for
     * an aggregate's partial groups and a top-N's best rows.
     */
    Iterator<InternalRow> apply(Iterator<InternalRow> rows) {
        DriveAggregates.Plan a = plan.aggregate();
        if (a == null && plan.topN() == null) {
            return matching(rows);
        }
        GroupAggregate.Merger groups = new GroupAggregate.Merger(true);
        List<InternalRow> kept = new ArrayList<>();
        while (rows.hasNext()) {
            InternalRow r = rows.next();
            if (where != null && !where.eval(r)) {
                continue;
            }
            if (a != null) {
                add(groups, a, r);
            } else {
                kept.add(r.copy());
                if (kept.size() >= 2 * plan.topN().n() + 1024) {
                    kept = topN(kept); // bounded: the best n so far, in order
                }
            }
        }
        if (a != null) {
            return ParquetRowGroupReader.aggregateRows(plan, groups).iterator();
        }
        return topN(kept).stream().map(this::project).iterator();
    }

    /** The rows that match, projected, up to the limit, as the reader gives them. */
    private Iterator<InternalRow> matching(Iterator<InternalRow> rows) {
        return new Iterator<>() {
            private InternalRow next;
            private long returned;

            @Override
            public boolean hasNext() {
                if (next != null) {
                    return true;
                }
                if (plan.limit() > 0 && returned >= plan.limit()) {
                    return false;
                }
                while (rows.hasNext()) {
                    InternalRow r = rows.next();
                    if (where == null || where.eval(r)) {
                        next = project(r);
                        return true;
                    }
                }
                return false;
            }

            @Override
            public InternalRow next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                InternalRow r = next;
                next = null;
                returned++;
                return r;
            }
        };
    }

    /** The required columns of {@code r}; their values may point into the reader's batch,
     *  which its next batch overwrites: the caller copies the row before reading on. */
    private InternalRow project(InternalRow r) {
        int n = plan.required().size();
        if (n == plan.hostSchema().size()) {
            return r;
        }
        Object[] v = new Object[n];
        for (int i = 0; i < n; i++) {
            v[i] = r.isNullAt(i) ? null : r.get(i, plan.hostSchema().fields()[i].dataType());
        }
        return new GenericInternalRow(v);
    }

    /** A row as a group-aggregate item of its own (the drive's rules for NULL keys and
     *  values), merged as the drive's partials are. */
    private void add(GroupAggregate.Merger groups, DriveAggregates.Plan a, InternalRow r) {
        StructField[] f = plan.hostSchema().fields();
        long[] k = new long[2];
        for (int i = 0; i < a.keys().length; i++) {
            if (r.isNullAt(a.keys()[i])) {
                return;
            }
            k[i] = Values.toWire(r.get(a.keys()[i], f[a.keys()[i]].dataType()));
        }
        long v = 0;
        if (a.value() >= 0) {
            if (r.isNullAt(a.value())) {
                return;
            }
            v = Values.toWire(r.get(a.value(), f[a.value()].dataType()));
        }
        groups.add(new GroupAggregate.Item(k[0], k[1], 1, v, v, v));
    }

    /** The best n of {@code rows} in order, ties in their order (the drive's). */
    private List<InternalRow> topN(List<InternalRow> rows) {
        ScanPlan.TopNSpec t = plan.topN();
        int col = plan.hostSchema().fieldIndex(plan.columns().get(t.column()));
        StructField f = plan.hostSchema().fields()[col];
        List<InternalRow> ranked = new ArrayList<>();
        for (InternalRow r : rows) {
            if (!r.isNullAt(col)) {
                ranked.add(r);
            }
        }
        Comparator<InternalRow> byValue = Comparator.comparingLong(
                r -> Values.toWire(r.get(col, f.dataType())));
        ranked.sort(t.ascending() ? byValue : byValue.reversed()); // stable: ties keep order
        return new ArrayList<>(ranked.subList(0, Math.min(t.n(), ranked.size())));
    }
}
