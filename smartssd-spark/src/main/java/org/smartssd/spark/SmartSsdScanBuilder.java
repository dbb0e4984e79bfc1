package org.smartssd.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownTopN;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.smartssd.device.tasklet.TopN;
import org.smartssd.spark.DriveFilters.Cond;

/**
 * What Spark's optimizer may push into the drive, one mix-in per capability: required
 * columns, V2 predicates, aggregates, top-N and limit. Each push is all or nothing; what is
 * not taken stays in Spark. {@link #build} turns the pushed work into one tasklet run per
 * partition ({@link ScanPlan}).
 */
public class SmartSsdScanBuilder implements ScanBuilder, SupportsPushDownRequiredColumns,
        SupportsPushDownV2Filters, SupportsPushDownAggregates, SupportsPushDownLimit,
        SupportsPushDownTopN {
    private final DriveFiles file;
    private final TableLayout layout;
    private final ReadOptions options;
    private final DriveConf conf;

    private final List<Predicate> pushed = new ArrayList<>();
    private Cond where = Cond.TRUE;
    private DriveAggregates.Plan aggregate;
    private int limit = -1;
    private ScanPlan.TopNSpec topN;
    private int[] required;

    SmartSsdScanBuilder(DriveFiles file, TableLayout layout, ReadOptions options, DriveConf conf) {
        this.file = file;
        this.layout = layout;
        this.options = options;
        this.conf = conf;
        this.required = allColumns();
    }

    private int[] allColumns() {
        int[] all = new int[layout.columns().size()];
        Arrays.setAll(all, i -> i);
        return all;
    }

    @Override
    public Predicate[] pushPredicates(Predicate[] predicates) {
        if (!options.pushDownPredicate()) {
            return predicates;
        }
        List<Predicate> rest = new ArrayList<>();
        for (Predicate p : predicates) {
            Optional<Cond> c = DriveFilters.translate(p, layout);
            if (c.isPresent() && fits(DriveFilters.and(List.of(where, c.get())))) {
                where = DriveFilters.and(List.of(where, c.get()));
                pushed.add(p);
            } else {
                rest.add(p);
            }
        }
        return rest.toArray(new Predicate[0]);
    }

    /** Whether the drive takes the tree (at most 128 nodes, 16 levels, 64 KiB). */
    private boolean fits(Cond c) {
        try {
            org.smartssd.device.tasklet.Predicate t = DriveFilters.tree(c, layout);
            if (t != null) {
                t.encode();
            }
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public Predicate[] pushedPredicates() {
        return pushed.toArray(new Predicate[0]);
    }

    private Optional<DriveAggregates.Plan> plan(Aggregation agg) {
        if (!options.pushDownAggregate()) {
            return Optional.empty();
        }
        return DriveAggregates.translate(agg, layout,
                file.maxRecordsPerPartition(layout));
    }

    @Override
    public boolean supportCompletePushDown(Aggregation agg) {
        return file.partitions().size() == 1 && plan(agg).isPresent();
    }

    @Override
    public boolean pushAggregation(Aggregation agg) {
        Optional<DriveAggregates.Plan> p = plan(agg);
        if (p.isEmpty()) {
            return false;
        }
        aggregate = p.get();
        return true;
    }

    @Override
    public boolean pushLimit(int n) {
        if (!options.pushDownLimit() || aggregate != null || n < 0) {
            return false;
        }
        limit = limit < 0 ? n : Math.min(limit, n);
        return true;
    }

    @Override
    public boolean pushTopN(SortOrder[] orders, int n) {
        // text: the drive ranks only the lines whose column parses, so the NULLs that Spark
        // orders first (ASC) or keeps to fill n would be missing; Spark sorts
        if (!options.pushDownTopN() || aggregate != null || orders.length != 1 || n < 1
                || n > TopN.MAX_N || layout.isText()) {
            return false;
        }
        if (!(orders[0].expression() instanceof NamedReference r) || r.fieldNames().length != 1) {
            return false;
        }
        int f = layout.indexOf(r.fieldNames()[0]);
        // a nullable field: the drive ranks only the records where it has a value (as text)
        if (f < 0 || layout.columns().get(f).isBytes() || layout.columns().get(f).nullable()) {
            return false;
        }
        topN = new ScanPlan.TopNSpec(f, orders[0].direction() == SortDirection.ASCENDING, n,
                r.fieldNames()[0] + " " + orders[0].direction() + " " + orders[0].nullOrdering());
        return true;
    }

    @Override
    public boolean isPartiallyPushed() {
        // the drive's top n of one partition is the answer; of several, Spark merges them
        return topN == null || file.partitions().size() > 1;
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        List<Integer> idx = new ArrayList<>();
        for (StructField f : requiredSchema.fields()) {
            int i = layout.indexOf(f.name());
            if (i >= 0) {
                idx.add(i);
            }
        }
        required = idx.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public Scan build() {
        org.smartssd.device.tasklet.Predicate tree = DriveFilters.tree(where, layout);
        ScanPlan plan = ScanPlan.of(file, layout, options, conf, tree, pushed, aggregate,
                topN, limit, required);
        return new SmartSsdScan(plan, file.partitions());
    }
}
