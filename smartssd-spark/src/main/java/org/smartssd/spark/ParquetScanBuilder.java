package org.smartssd.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownTopN;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.smartssd.device.tasklet.Predicate;
import org.smartssd.device.tasklet.TopN;
import org.smartssd.scan.Placement;
import org.smartssd.scan.parquet.DriveColumn;
import org.smartssd.scan.parquet.ParquetFooter;

/**
 * Plans a read of Parquet files, one mix-in per capability as for the row tables: the
 * filters that translate become the drive's WHERE tree and are Spark's no more (the host
 * runs them with Spark's own expressions where a row group is read there), the required
 * columns its projection, and beside them an aggregate (partial per row group: Spark
 * reduces), a top-N or a LIMIT (both partial: Spark still sorts and cuts). Each row group is
 * a partition, read in the drive when it can decode every column the scan needs there, else
 * on the host with Spark's Parquet reader, the reason kept for EXPLAIN.
 */
final class ParquetScanBuilder implements ScanBuilder, SupportsPushDownFilters,
        SupportsPushDownRequiredColumns, SupportsPushDownAggregates, SupportsPushDownLimit,
        SupportsPushDownTopN {
    private final List<Path> files;
    private final StructType schema;
    private final ReadOptions read;
    private final DriveConf conf;
    private StructType required;
    /** Every filter Spark offered: the statistics prune row groups by them. */
    private Filter[] offered = new Filter[0];
    /** The filters the drive's tree holds: Spark leaves them to the scan. */
    private final List<Filter> claimed = new ArrayList<>();
    private ParquetAggregates.Translation aggregate;
    private String topNColumn;
    private ScanPlan.TopNSpec topN;
    private long limit;
    private final List<String> notPushed = new ArrayList<>();
    private List<ParquetFooter> footers;

    ParquetScanBuilder(List<Path> files, StructType schema, ReadOptions read, DriveConf conf) {
        this.files = files;
        this.schema = schema;
        this.required = schema;
        this.read = read;
        this.conf = conf;
    }

    private List<ParquetFooter> footers() {
        if (footers == null) {
            List<ParquetFooter> all = new ArrayList<>();
            try {
                for (Path f : files) {
                    all.add(ParquetFooter.readCached(f, conf.hadoop()));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("planning a Parquet read of " + files.get(0)
                        + ": " + e.getMessage(), e);
            }
            footers = all;
        }
        return footers;
    }

    @Override
    public Filter[] pushFilters(Filter[] filters) {
        if (!read.pushDownPredicate()) {
            return filters;
        }
        offered = filters.clone();
        List<Filter> rest = new ArrayList<>();
        for (Filter f : filters) {
            List<Filter> with = new ArrayList<>(claimed);
            with.add(f);
            if (whereTree(with, new ArrayList<>(), new LinkedHashMap<>()).isPresent()) {
                claimed.add(f);
            } else {
                rest.add(f);
            }
        }
        return rest.toArray(new Filter[0]);
    }

    /**
     * The drive's tree of {@code filters}, their columns added to {@code names} and
     * {@code columns}; empty when one does not translate or the tree is past the drive's
     * limits (128 nodes, 16 levels).
     */
    private Optional<byte[]> whereTree(List<Filter> filters, List<String> names,
                                       Map<String, DriveColumn> columns) {
        ParquetFooter first = footers().get(0);
        List<Predicate> trees = new ArrayList<>();
        for (Filter f : filters) {
            Optional<Predicate> p = ParquetDriveFilters.translate(f,
                    n -> planColumn(first, n, names, columns),
                    i -> columns.get(names.get(i)));
            if (p.isEmpty()) {
                return Optional.empty();
            }
            trees.add(p.get());
        }
        try {
            return Optional.of(trees.isEmpty() ? new byte[0] : (trees.size() == 1 ? trees.get(0)
                    : new Predicate.And(trees)).encode());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public Filter[] pushedFilters() {
        return claimed.toArray(new Filter[0]);
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        required = requiredSchema;
    }

    @Override
    public boolean supportCompletePushDown(Aggregation agg) {
        return false; // a partial per row group; Spark reduces them
    }

    @Override
    public boolean pushAggregation(Aggregation agg) {
        if (!read.pushDownAggregate()) {
            return false;
        }
        ParquetAggregates.Translation t = ParquetAggregates.translate(agg, schema, footers());
        if (t.plan() == null) {
            notPushed.add("aggregate: " + t.refusal());
            return false;
        }
        aggregate = t;
        return true;
    }

    @Override
    public boolean pushLimit(int n) {
        if (!read.pushDownLimit() || aggregate != null || n < 1) {
            return false;
        }
        limit = limit == 0 ? n : Math.min(limit, n);
        return true;
    }

    @Override
    public boolean pushTopN(SortOrder[] orders, int n) {
        if (!read.pushDownTopN() || aggregate != null || orders.length != 1 || n < 1
                || n > TopN.MAX_N) {
            return false;
        }
        if (!(orders[0].expression() instanceof NamedReference r) || r.fieldNames().length != 1) {
            return false;
        }
        String why = ParquetAggregates.rankingRefusal(r.fieldNames()[0], footers());
        if (why != null) {
            notPushed.add("topN: " + why);
            return false;
        }
        topNColumn = r.fieldNames()[0];
        topN = new ScanPlan.TopNSpec(-1, orders[0].direction() == SortDirection.ASCENDING, n,
                topNColumn + " " + orders[0].direction() + " " + orders[0].nullOrdering());
        return true;
    }

    @Override
    public boolean isPartiallyPushed() {
        return true; // each row group's top n: Spark merges them
    }

    @Override
    public Scan build() {
        ParquetFooter first = footers().get(0);
        Map<String, DriveColumn> columns = new LinkedHashMap<>();
        List<String> refusals = new ArrayList<>();
        List<String> names;
        int nproj;
        StructType hostSchema;
        if (aggregate != null) {
            names = new ArrayList<>(aggregate.columns());
            names.forEach(n -> columns.put(n, first.column(n).column()));
            nproj = 0;
        } else {
            for (String n : required.fieldNames()) {
                DriveColumn.Typing t = first.column(n);
                if (t.unsupported() != null) {
                    refusals.add(t.unsupported());
                } else if (t.column().floating()) {
                    // ROWS returns a FLOAT/DOUBLE as its order key: -0.0 would come back 0.0
                    refusals.add("column " + n + ": FLOAT/DOUBLE returned as order keys");
                } else {
                    columns.put(n, t.column());
                }
            }
            names = new ArrayList<>(columns.keySet());
            nproj = names.size();
        }
        byte[] tree = whereTree(claimed, names, columns).orElseThrow(() ->
                new IllegalStateException("the pushed filters " + claimed + " no longer "
                        + "translate"));
        if (names.size() > 16) {
            refusals.add("more than 16 columns");
        }
        if (aggregate != null) {
            hostSchema = fields(names);
        } else {
            List<String> host = new ArrayList<>(List.of(required.fieldNames()));
            names.stream().filter(n -> !host.contains(n)).forEach(host::add);
            hostSchema = fields(host);
        }
        ScanPlan.TopNSpec ranked = null;
        if (topN != null) {
            int col = names.indexOf(topNColumn);
            String why = col < 0 || col >= nproj ? "its column is not read"
                    : refusals.isEmpty() ? driveTopNRefusal(names, columns, nproj) : null;
            if (why != null) {
                notPushed.add("topN run by Spark: " + why);
            } else {
                ranked = new ScanPlan.TopNSpec(col, topN.ascending(), topN.n(),
                        topN.described());
            }
        }
        String hostReason = read.placement() == Placement.HOST ? "placement=host"
                : refusals.isEmpty() ? null : String.join("; ", refusals);
        ParquetReadPlan plan = new ParquetReadPlan(required, names, nproj, tree, hostReason,
                read.placement() == Placement.AUTO && hostReason == null, conf, hostSchema, claimed.toArray(new Filter[0]), limit,
                aggregate == null ? null : aggregate.plan(), ranked, notPushed);
        return new ParquetScan(plan, schema, files, pushedFilters(), offered);
    }

    /** Why the drive's TOPN cannot return these rows (its payload holds no string). */
    private static String driveTopNRefusal(List<String> names, Map<String, DriveColumn> columns,
                                           int nproj) {
        for (int i = 0; i < nproj; i++) {
            if (columns.get(names.get(i)).type() == DriveColumn.T_BYTE_ARRAY) {
                return "string column " + names.get(i) + " in the rows";
            }
        }
        return null;
    }

    private StructType fields(List<String> names) {
        List<StructField> f = new ArrayList<>();
        for (String n : names) {
            f.add(schema.apply(n));
        }
        return new StructType(f.toArray(new StructField[0]));
    }

    /** The plan column of a filter's column, added after the others; -1 if none. */
    private static int planColumn(ParquetFooter footer, String name, List<String> names,
                                  Map<String, DriveColumn> columns) {
        int i = names.indexOf(name);
        if (i >= 0) {
            return i;
        }
        if (!footer.columnNames().contains(name)) {
            return -1;
        }
        DriveColumn.Typing t = footer.column(name);
        if (t.unsupported() != null) {
            return -1;
        }
        names.add(name);
        columns.put(name, t.column());
        return names.size() - 1;
    }
}
