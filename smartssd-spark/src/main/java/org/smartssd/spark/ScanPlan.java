package org.smartssd.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.tasklet.BuiltinTasklet;
import org.smartssd.device.tasklet.Filter;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.TopN;
import org.smartssd.device.tasklet.WhereParams;
import org.smartssd.scan.Placement;
import org.smartssd.spark.TableLayout.Column;

/**
 * Everything a task needs to read its partition, decided once on the driver: how the
 * partition is read ({@link Mode}), the tasklet's params bytes (null for a plain read), the
 * columns returned, what was pushed (for EXPLAIN) and where the tasklet's work runs
 * ({@link Placement}; null: not set, every partition in the drive and nothing planned).
 */
record ScanPlan(String path, String drive, TableLayout layout, DriveConf conf,
                Mode mode, byte[] params, int memoryBudget, int[] columns,
                DriveAggregates.Plan aggregate, TopNSpec topN, int limit, String pushedFilters,
                StructType readSchema, boolean columnar, Placement placement)
        implements Serializable {

    /** How a partition is read. */
    enum Mode {
        /** Record bytes over the link, decoded on the host (nothing pushed but columns). */
        READ(null),
        /** The filter tasklet: matching rows (projected or whole records), or a count. */
        FILTER(BuiltinTasklet.FILTER),
        /** The group-aggregate tasklet. */
        AGGREGATE(BuiltinTasklet.GROUP_AGGREGATE),
        /** The top-N tasklet. */
        TOP_N(BuiltinTasklet.TOP_N);

        final BuiltinTasklet tasklet;

        Mode(BuiltinTasklet tasklet) {
            this.tasklet = tasklet;
        }
    }

    /** ORDER BY one integer column LIMIT n. */
    record TopNSpec(int column, boolean ascending, int n, String described)
            implements Serializable {
    }

    static final int BUDGET_BASE = 64 * 1024;

    static ScanPlan of(DriveFiles files, TableLayout layout, ReadOptions options, DriveConf conf,
                       org.smartssd.device.tasklet.Predicate where, List<Predicate> pushed,
                       DriveAggregates.Plan aggregate, TopNSpec topN, int limit,
                       int[] columns) {
        String filters = pushed.stream().map(Predicate::toString)
                .collect(Collectors.joining(", ", "[", "]"));
        Mode mode;
        byte[] params;
        int budget = BUDGET_BASE;
        StructType schema;
        if (aggregate != null) {
            mode = Mode.AGGREGATE;
            GroupAggregate g = GroupAggregate.groupBy(aggregate.keys()).ops(aggregate.ops());
            if (aggregate.value() >= 0) {
                g = g.value(aggregate.value());
            }
            params = WhereParams.groupAggregate(g, where);
            budget = smallKeyDomain(layout, aggregate.keys()) ? GroupAggregate.SRAM_STATE_BYTES
                    : budget + 1024 * GroupAggregate.ITEM_BYTES;
            schema = aggregate.schema();
            columns = new int[0];
        } else if (topN != null) {
            mode = Mode.TOP_N;
            TopN t = (topN.ascending() ? TopN.smallest(topN.n(), topN.column())
                    : TopN.largest(topN.n(), topN.column()));
            if (columns.length > 0 && projectsExactly(layout, columns)) {
                t = t.project(columns);
            }
            params = WhereParams.topN(t, where);
            budget += topN.n() * (TopN.ITEM_HEADER_BYTES + layout.recordSize()
                    + 10 * columns.length) * 2;
            schema = schemaOf(layout, columns);
        } else if (where != null || layout.isText()) {
            // text is always read by the drive's filter, which cuts the partition into lines
            // as Hadoop's LineRecordReader does; lines come whole (a projected text column
            // cannot tell a missing column from an empty one, nor an unparsable number from 0)
            mode = Mode.FILTER;
            Filter f = columns.length == 0 ? Filter.count(where)
                    : !layout.isText() && projectedBytes(layout, columns) < layout.recordSize()
                            && projectsExactly(layout, columns)
                            ? Filter.project(where, columns) : Filter.records(where);
            if (layout.isText()) {
                budget += layout.recordSize(); // a line open at a batch's end is carried
            }
            if (limit >= 0) {
                f = f.limit(Math.max(1, limit));
            }
            params = f.params();
            schema = schemaOf(layout, columns);
        } else {
            mode = Mode.READ;
            params = null;
            schema = schemaOf(layout, columns);
        }
        Placement placement = options.placement() != null ? options.placement()
                : Placement.of(conf.hadoop()).orElse(null);
        return new ScanPlan(files.paths(), files.drives(), layout, conf, mode, params,
                budget, columns, aggregate, topN, limit, filters, schema,
                mode == Mode.READ && options.columnar(), placement);
    }

    /** Key domains of at most this many groups get a group table in the drive's SRAM. */
    static final int SRAM_KEY_DOMAIN = 4096;

    /**
     * Whether the group keys can take at most {@value #SRAM_KEY_DOMAIN} values together (a
     * region, a type, a status...). Their group table then goes into the controller's SRAM
     * (the budget of {@link GroupAggregate#SRAM_STATE_BYTES}, as many groups as it holds,
     * about 300): a table in DRAM costs about 9 DRAM accesses, some 880 modelled ns, per
     * record (measured with benchmarks/run-spark.sh), more than the link time of a 256-byte
     * record. Groups beyond the table spill as partial aggregates, which the host merges
     * exactly; wider keys keep the larger table in DRAM, which spills less.
     */
    static boolean smallKeyDomain(TableLayout layout, int[] keys) {
        java.math.BigInteger domain = java.math.BigInteger.ONE;
        for (int k : keys) {
            Column c = layout.columns().get(k);
            domain = domain.multiply(c.max().subtract(c.min()).add(java.math.BigInteger.ONE));
        }
        return domain.compareTo(java.math.BigInteger.valueOf(SRAM_KEY_DOMAIN)) <= 0;
    }

    /**
     * Whether the drive's projection keeps every value of the columns: a NULL projects as 0
     * and a float as its order key (-0.0 as 0.0), so nullable and float columns come in whole
     * records instead.
     */
    static boolean projectsExactly(TableLayout layout, int[] columns) {
        for (int c : columns) {
            Column col = layout.columns().get(c);
            if (col.field().nullable() || col.isFloat()) {
                return false;
            }
        }
        return true;
    }

    /** Bytes of one projected row as the drive writes it (8 per integer, 2 + width per bytes). */
    static int projectedBytes(TableLayout layout, int[] columns) {
        int n = 0;
        for (int c : columns) {
            Column col = layout.columns().get(c);
            n += col.isBytes() ? 2 + col.field().width() : 8;
        }
        return n;
    }

    static StructType schemaOf(TableLayout layout, int[] columns) {
        StructType all = layout.schema();
        List<StructField> f = new ArrayList<>();
        for (int c : columns) {
            f.add(all.fields()[c]);
        }
        return new StructType(f.toArray(new StructField[0]));
    }

    TaskletSpec spec() {
        return new TaskletSpec(mode.tasklet.id(), layout.recordLayout(), params, memoryBudget, 0);
    }

    /** The filter's spec with its limit lowered to {@code limit} (> 0): what a pushed LIMIT
     *  leaves to one side of a partition after the other side's matches. */
    TaskletSpec spec(long limit) {
        byte[] p = Filter.parse(params).limit(limit).params();
        return new TaskletSpec(mode.tasklet.id(), layout.recordLayout(), p, memoryBudget, 0);
    }

    /** The tasklet's name, or the plain read. */
    String taskletName() {
        return mode.tasklet == null ? "none (record read)" : mode.tasklet.taskletName();
    }
}
