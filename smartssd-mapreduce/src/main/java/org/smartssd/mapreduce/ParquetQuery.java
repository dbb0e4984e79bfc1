package org.smartssd.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.smartssd.scan.parquet.DriveColumn;
import org.smartssd.scan.parquet.ParquetFooter;
import org.smartssd.scan.parquet.ParquetScanPlan;

/**
 * The query of a device job over Parquet files: the parquet-scan plan's query part (columns
 * by name, mode, projection, WHERE tree, keys, value, ops, limit), kept in the job
 * configuration and made into each row group's {@link ParquetScanPlan} from its file's
 * footer, the plan the Spark connector sends for the same query.
 *
 * @param columns the plan columns, by name (top-level flat columns of the files)
 * @param mode ROWS or AGGREGATE
 * @param projection ROWS: the plan columns each row returns
 * @param tree the WHERE tree ({@code org.smartssd.device.tasklet.Predicate}'s encoding over
 *        plan columns; empty: every row)
 * @param keys AGGREGATE: up to two key plan columns
 * @param value AGGREGATE: the value plan column
 * @param ops AGGREGATE: group-aggregate's op bits
 * @param limit ROWS: at most so many rows of each split (0: all)
 */
public record ParquetQuery(List<String> columns, ParquetScanPlan.Mode mode, int[] projection,
                           byte[] tree, int[] keys, int value, int ops, long limit) {
    static final String PREFIX = "smartssd.mapreduce.parquet";

    public ParquetQuery {
        columns = List.copyOf(columns);
        projection = projection.clone();
        tree = tree.clone();
        keys = keys.clone();
        if (mode != ParquetScanPlan.Mode.ROWS && mode != ParquetScanPlan.Mode.AGGREGATE) {
            throw new IllegalArgumentException("a device job runs ROWS or AGGREGATE Parquet "
                    + "scans, not " + mode);
        }
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a Parquet query reads at least one column");
        }
    }

    /** ROWS of {@code projection} where {@code tree} holds. */
    public static ParquetQuery rows(List<String> columns, byte[] tree, long limit,
                                    int... projection) {
        return new ParquetQuery(columns, ParquetScanPlan.Mode.ROWS, projection, tree,
                new int[0], 0, 0, limit);
    }

    /** AGGREGATE ({@code ops}) of {@code value} by {@code keys} where {@code tree} holds. */
    public static ParquetQuery aggregate(List<String> columns, byte[] tree, int ops, int value,
                                         int... keys) {
        return new ParquetQuery(columns, ParquetScanPlan.Mode.AGGREGATE, new int[0], tree,
                keys, value, ops, 0);
    }

    /** The plan of this query over {@code footer}'s file. */
    ParquetScanPlan plan(ParquetFooter footer) throws IOException {
        List<DriveColumn> cols = new ArrayList<>();
        for (String n : columns) {
            if (!footer.columnNames().contains(n)) {
                throw new IOException(footer.path() + " has no column " + n);
            }
            DriveColumn.Typing t = footer.column(n);
            if (t.unsupported() != null) {
                throw new IOException(footer.path() + ": the drive does not decode "
                        + t.unsupported());
            }
            cols.add(t.column());
        }
        ParquetScanPlan.Builder b = ParquetScanPlan.builder(cols).where(tree);
        if (mode == ParquetScanPlan.Mode.AGGREGATE) {
            b.aggregate(ops, value, keys);
        } else {
            b.rows(projection).limit(limit);
        }
        return b.build();
    }

    void store(Configuration conf) {
        conf.setStrings(PREFIX + ".columns", columns.toArray(new String[0]));
        conf.set(PREFIX + ".mode", mode.name());
        conf.set(PREFIX + ".projection", ints(projection));
        conf.set(PREFIX + ".tree", Base64.getEncoder().encodeToString(tree));
        conf.set(PREFIX + ".keys", ints(keys));
        conf.setInt(PREFIX + ".value", value);
        conf.setInt(PREFIX + ".ops", ops);
        conf.setLong(PREFIX + ".limit", limit);
    }

    /** The query {@link #store} kept in {@code conf}; null when there is none. */
    static ParquetQuery load(Configuration conf) {
        String[] cols = conf.getStrings(PREFIX + ".columns");
        if (cols == null) {
            return null;
        }
        return new ParquetQuery(Arrays.asList(cols),
                ParquetScanPlan.Mode.valueOf(conf.get(PREFIX + ".mode")),
                ints(conf.get(PREFIX + ".projection", "")),
                Base64.getDecoder().decode(conf.get(PREFIX + ".tree", "")),
                ints(conf.get(PREFIX + ".keys", "")), conf.getInt(PREFIX + ".value", 0),
                conf.getInt(PREFIX + ".ops", 0), conf.getLong(PREFIX + ".limit", 0));
    }

    private static String ints(int[] v) {
        StringBuilder s = new StringBuilder();
        for (int i : v) {
            s.append(s.length() == 0 ? "" : ",").append(i);
        }
        return s.toString();
    }

    private static int[] ints(String s) {
        return s.isEmpty() ? new int[0]
                : Arrays.stream(s.split(",")).mapToInt(Integer::parseInt).toArray();
    }
}
