package org.smartssd.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.unsafe.types.UTF8String;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.tasklet.Filter;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.GroupKey;
import org.smartssd.device.TaskletFailedException;
import org.smartssd.device.tasklet.Projection;
import org.smartssd.device.tasklet.TopN;
import org.smartssd.spark.TableLayout.Column;

/**
 * The rows of a scan's tasklet outputs, in the read schema: the drive's and the host's
 * outputs (the same bytes, {@code HostTasklet}) decoded with one decoder per tasklet and
 * combined as partitions' partial results are (filter rows appended, groups and top-N
 * merged exactly).
 */
final class OutputRows {
    private final ScanPlan plan;

    OutputRows(ScanPlan plan) {
        this.plan = plan;
    }

    /** The rows of the outputs of the sides that ran (none: the range is empty), combined as
     *  partial results are. */
    List<InternalRow> decode(List<byte[]> outputs) throws TaskletFailedException {
        return switch (plan.mode()) {
            case FILTER -> {
                List<InternalRow> rows = new ArrayList<>();
                for (byte[] o : outputs) {
                    rows.addAll(filterRows(o));
                }
                yield rows;
            }
            case AGGREGATE -> aggregateRows(outputs);
            case TOP_N -> outputs.isEmpty() ? List.of() : topNRows(outputs);
            case READ -> throw new IllegalStateException("a plain read runs no tasklet");
        };
    }

    private List<InternalRow> filterRows(byte[] output) throws TaskletFailedException {
        RecordLayout rl = plan.layout().recordLayout();
        Filter f = Filter.parse(plan.params());
        Filter.Output o = f.decode(output, rl);
        List<InternalRow> rows = new ArrayList<>();
        switch (o.mode()) {
            case COUNT -> {
                for (long i = 0; i < o.matches(); i++) {
                    rows.add(new GenericInternalRow(new Object[0]));
                }
            }
            case PROJECT -> o.rows().forEach(r -> rows.add(projected(r)));
            default -> o.records().forEach(r -> rows.add(whole(r)));
        }
        return rows;
    }

    private InternalRow whole(byte[] record) {
        if (plan.layout().isText()) {
            return new GenericInternalRow(Values.fromLine(plan.layout(), plan.columns(), record));
        }
        int[] c = plan.columns();
        Object[] v = new Object[c.length];
        for (int i = 0; i < c.length; i++) {
            v[i] = Values.fromRecord(plan.layout().columns().get(c[i]), record, 0);
        }
        return new GenericInternalRow(v);
    }

    private InternalRow projected(List<Object> values) {
        int[] c = plan.columns();
        Object[] v = new Object[c.length];
        for (int i = 0; i < c.length; i++) {
            Object x = values.get(i);
            Column col = plan.layout().columns().get(c[i]);
            v[i] = x instanceof byte[] b ? UTF8String.fromBytes(b, 0, plan.layout().isText()
                    ? b.length : Values.unpaddedLength(b, 0, b.length))
                    : Values.fromWire(col.sparkType(), (Long) x);
        }
        return new GenericInternalRow(v);
    }

    private List<InternalRow> aggregateRows(List<byte[]> outputs)
            throws TaskletFailedException {
        DriveAggregates.Plan a = plan.aggregate();
        TableLayout layout = plan.layout();
        boolean signed = a.value() >= 0 && layout.columns().get(a.value()).signed();
        boolean floatSum = a.value() >= 0 && layout.columns().get(a.value()).isFloat();
        GroupAggregate.Merger m = new GroupAggregate.Merger(signed, floatSum
                ? GroupAggregate.SumKind.DOUBLE : a.checkedSum()
                ? GroupAggregate.SumKind.CHECKED : GroupAggregate.SumKind.WRAPPING);
        for (byte[] output : outputs) {
            m.addAll(GroupAggregate.decode(output).items());
        }
        Map<GroupKey, GroupAggregate.Item> groups = m.result();
        List<InternalRow> rows = new ArrayList<>();
        if (groups.isEmpty() && a.global()) {
            // an aggregate without GROUP BY has one row even over no records
            Object[] v = new Object[a.outputs().size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = a.outputs().get(i) == DriveAggregates.Kind.COUNT ? 0L : null;
            }
            rows.add(new GenericInternalRow(v));
            return rows;
        }
        DataType valueType = a.value() >= 0 ? layout.columns().get(a.value()).sparkType() : null;
        for (GroupAggregate.Item it : groups.values()) {
            Object[] v = new Object[a.outputs().size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = switch (a.outputs().get(i)) {
                    case KEY1, KEY2, KEY3, KEY4 -> {
                        int k = a.outputs().get(i).ordinal() - DriveAggregates.Kind.KEY1.ordinal();
                        yield Values.fromWire(layout.columns().get(a.keys()[k]).sparkType(),
                                DriveAggregates.key(layout, a.keys(), k, it.key1(), it.key2()));
                    }
                    case COUNT -> it.count();
                    case SUM -> floatSum ? (Object) Double.longBitsToDouble(it.sum()) : it.sum();
                    case MIN -> Values.fromWire(valueType, it.min());
                    case MAX -> Values.fromWire(valueType, it.max());
                };
            }
            rows.add(new GenericInternalRow(v));
        }
        return rows;
    }

    private List<InternalRow> topNRows(List<byte[]> outputs) throws TaskletFailedException {
        ScanPlan.TopNSpec spec = plan.topN();
        TableLayout layout = plan.layout();
        TopN.Merger m = new TopN.Merger(spec.n(), spec.ascending(),
                layout.columns().get(spec.column()).signed());
        for (byte[] output : outputs) {
            m.addAll(TopN.decode(output).items());
        }
        List<InternalRow> rows = new ArrayList<>();
        List<TopN.Item> best = m.result().getOrDefault(GroupKey.NONE, List.of());
        Projection proj = plan.columns().length == 0
                || !ScanPlan.projectsExactly(layout, plan.columns()) ? null
                : new Projection(layout.recordLayout(), plan.columns());
        for (TopN.Item it : best) {
            rows.add(plan.columns().length == 0 ? new GenericInternalRow(new Object[0])
                    : proj == null ? whole(it.payload()) : projected(proj.decode(it.payload())));
        }
        return rows;
    }
}
