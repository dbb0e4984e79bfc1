package org.smartssd.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.smartssd.device.tasklet.Predicate;
import org.smartssd.scan.Placement;
import org.smartssd.scan.parquet.DriveColumn;
import org.smartssd.scan.parquet.ParquetFooter;

/**
 * Plans a read of Parquet files: the filters that translate become the drive's WHERE tree
 * (Spark re-checks every filter, so a filter the drive cannot take costs only rows), the
 * required columns its projection. Each row group is a partition, read in the drive when it
 * can decode every column the scan needs there, else on the host with Spark's Parquet
 * reader, the reason kept for EXPLAIN.
 */
final class ParquetScanBuilder implements ScanBuilder, SupportsPushDownFilters,
        SupportsPushDownRequiredColumns {
    private final List<Path> files;
    private final StructType schema;
    private final ReadOptions read;
    private final DriveConf conf;
    private StructType required;
    private Filter[] pushed = new Filter[0];
    private final List<Filter> translated = new ArrayList<>();

    ParquetScanBuilder(List<Path> files, StructType schema, ReadOptions read, DriveConf conf) {
        this.files = files;
        this.schema = schema;
        this.required = schema;
        this.read = read;
        this.conf = conf;
    }

    @Override
    public Filter[] pushFilters(Filter[] filters) {
        pushed = read.pushDownPredicate() ? filters.clone() : new Filter[0];
        return filters;
    }

    @Override
    public Filter[] pushedFilters() {
        return translated.toArray(new Filter[0]);
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        required = requiredSchema;
    }

    @Override
    public Scan build() {
        try {
            ParquetFooter first = ParquetFooter.read(files.get(0), conf.hadoop());
            Map<String, DriveColumn> columns = new LinkedHashMap<>();
            List<String> refusals = new ArrayList<>();
            for (String n : required.fieldNames()) {
                DriveColumn.Typing t = first.column(n);
                if (t.unsupported() != null) {
                    refusals.add(t.unsupported());
                } else if (t.column().type() == 4 || t.column().type() == 5) {
                    // ROWS returns a FLOAT/DOUBLE as its order key: -0.0 would come back 0.0
                    refusals.add("column " + n + ": FLOAT/DOUBLE returned as order keys");
                } else {
                    columns.put(n, t.column());
                }
            }
            int nproj = columns.size();
            List<String> names = new ArrayList<>(columns.keySet());
            List<Predicate> trees = new ArrayList<>();
            for (Filter f : pushed) {
                List<String> before = new ArrayList<>(names);
                Optional<Predicate> p = ParquetDriveFilters.translate(f,
                        n -> planColumn(first, n, names, columns),
                        i -> columns.get(names.get(i)));
                if (p.isPresent() && names.size() <= 16) {
                    trees.add(p.get());
                    translated.add(f);
                } else {
                    names.retainAll(before);
                    columns.keySet().retainAll(before);
                }
            }
            byte[] tree = trees.isEmpty() ? new byte[0] : (trees.size() == 1 ? trees.get(0)
                    : new Predicate.And(trees)).encode();
            if (names.size() > 16) {
                refusals.add("more than 16 columns");
            }
            ParquetReadPlan plan = new ParquetReadPlan(required, names, nproj, tree,
                    read.placement() == Placement.HOST ? "placement=host"
                            : refusals.isEmpty() ? null : String.join("; ", refusals), conf);
            return new ParquetScan(plan, schema, files, pushedFilters(), pushed);
        } catch (IOException e) {
            throw new UncheckedIOException("planning a Parquet read of " + files.get(0) + ": "
                    + e.getMessage(), e);
        }
    }

    /** The plan column of a filter's column, added after the projected ones; -1 if none. */
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
