package org.smartssd.scan.parquet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.HostPredicate;
import org.smartssd.device.tasklet.Predicate;

/**
 * A ROWS or AGGREGATE parquet-scan plan run on the host, over row groups the drive refused
 * ({@link ParquetDriveScan.Unsupported}): parquet-mr reads the plan's columns, and each row
 * is taken as the drive takes it, so either side gives the same answer. The values are the
 * drive's ({@link ParquetHostRow}); the WHERE tree is the host's one evaluator,
 * {@link HostPredicate}, three-valued; ROWS gives what {@link ParquetDriveScan#decodeRow}
 * gives; AGGREGATE gives group-aggregate's items, a row left out where a key is NULL or the
 * value is NULL and read (SUM, MIN or MAX), sums modulo 2^64, merged per group by
 * {@link GroupAggregate.Merger} (an op not asked is 0, as the drive writes it).
 */
public final class ParquetHostScan implements java.io.Closeable {
    /**
     * What the host computed over one row group: ROWS' rows (as
     * {@link ParquetDriveScan.Result#rows}) or AGGREGATE's items (one per group, by key),
     * and the rows parquet-mr read.
     */
    public record Result(List<Object[]> rows, List<GroupAggregate.Item> items, long rowsRead) {
    }

    private final ParquetScanPlan plan;
    private final boolean aggregate;
    private final HostPredicate test;
    private final ParquetHostRow row;
    private final MessageColumnIO io;
    private final ParquetFileReader reader;

    private ParquetHostScan(ParquetScanPlan plan, Predicate where, ParquetFileReader reader,
                            MessageType schema) {
        this.plan = plan;
        this.reader = reader;
        aggregate = plan.mode() == ParquetScanPlan.Mode.AGGREGATE;
        List<DriveColumn> cols = plan.columns();
        test = where == null ? null : new HostPredicate(where);
        Map<String, Integer> slots = new LinkedHashMap<>();
        List<Type> fields = new ArrayList<>();
        int[] slot = new int[cols.size()];
        for (int f = 0; f < cols.size(); f++) {
            String name = cols.get(f).name();
            Integer s = slots.get(name);
            if (s == null) {
                s = fields.size();
                slots.put(name, s);
                fields.add(schema.getType(name));
            }
            slot[f] = s;
        }
        MessageType requested = new MessageType(schema.getName(), fields);
        row = new ParquetHostRow(cols, slot, fields.size());
        reader.setRequestedSchema(requested);
        io = new ColumnIOFactory().getColumnIO(requested, schema);
    }

    /**
     * {@code plan} over {@code footer}'s file, opened once for the row groups
     * {@link #rowGroup} is then asked for, one at a time (a split's rows are never all held).
     *
     * @throws IOException the file cannot be read, or no longer has the footer's row groups
     * @throws IllegalArgumentException a plan the drive would refuse (a comparison on a
     *         BYTE_ARRAY column, a byte match on a number, a key or value that is not a number,
     *         a SUM of floats), or a mode other than ROWS and AGGREGATE
     */
    public static ParquetHostScan open(Configuration conf, ParquetScanPlan plan,
                                       ParquetFooter footer) throws IOException {
        if (plan.mode() != ParquetScanPlan.Mode.AGGREGATE
                && plan.mode() != ParquetScanPlan.Mode.ROWS) {
            throw new IllegalArgumentException("the host runs ROWS and AGGREGATE plans, not "
                    + plan.mode());
        }
        Predicate where = Predicate.decode(plan.tree());
        if (where != null) {
            List<FieldType> types = plan.columns().stream().map(DriveColumn::fieldType).toList();
            try {
                where.check(types);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("WHERE over the plan's columns "
                        + plan.columns().stream().map(DriveColumn::name).toList() + ": "
                        + e.getMessage(), e);
            }
        }
        if (plan.mode() == ParquetScanPlan.Mode.AGGREGATE) {
            checkAggregate(plan);
        }
        ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(footer.path(), conf),
                HadoopReadOptions.builder(conf).build());
        try {
            if (r.getRowGroups().size() != footer.rowGroups().size()) {
                throw new IOException(footer.path() + " has " + r.getRowGroups().size()
                        + " row groups, not the " + footer.rowGroups().size()
                        + " its footer had: the file changed");
            }
            return new ParquetHostScan(plan, where, r, footer.schema());
        } catch (IOException | RuntimeException e) {
            r.close();
            throw e;
        }
    }

    /** Row group {@code g} of the file; ROWS stops after {@code limit} rows (0: all). */
    public Result rowGroup(int g, long limit) throws IOException {
        if (g < 0 || g >= reader.getRowGroups().size()) {
            throw new IOException("row group " + g + " of " + reader.getRowGroups().size());
        }
        List<DriveColumn> cols = plan.columns();
        int[] proj = plan.projection();
        int[] keys = plan.keys();
        int ops = plan.ops();
        boolean readsValue = ops != ParquetScanPlan.OP_COUNT;
        GroupAggregate.Merger groups = new GroupAggregate.Merger(aggregate
                && cols.get(plan.value()).fieldType().signed());
        List<Object[]> rows = new ArrayList<>();
        long read = 0;
        PageReadStore pages = reader.readRowGroup(g);
        RecordReader<ParquetHostRow> rr = io.getRecordReader(pages, row.materializer());
        for (long i = 0; i < pages.getRowCount(); i++) {
            rr.read();
            read++;
            if (test != null && !test.test(row)) {
                continue;
            }
            if (aggregate) {
                long k1 = 0;
                long k2 = 0;
                long v = 0;
                if (keys.length >= 1) {
                    if (!row.number(keys[0])) {
                        continue;
                    }
                    k1 = row.value();
                }
                if (keys.length >= 2) {
                    if (!row.number(keys[1])) {
                        continue;
                    }
                    k2 = row.value();
                }
                if (readsValue) {
                    if (!row.number(plan.value())) {
                        continue;
                    }
                    v = row.value();
                }
                groups.add(new GroupAggregate.Item(k1, k2, 1,
                        (ops & ParquetScanPlan.OP_SUM) != 0 ? v : 0,
                        (ops & ParquetScanPlan.OP_MIN) != 0 ? v : 0,
                        (ops & ParquetScanPlan.OP_MAX) != 0 ? v : 0));
            } else {
                Object[] out = new Object[proj.length];
                for (int j = 0; j < proj.length; j++) {
                    out[j] = row.decoded(proj[j]);
                }
                rows.add(out);
                if (limit > 0 && rows.size() >= limit) {
                    break;
                }
            }
        }
        return new Result(rows, new ArrayList<>(groups.result().values()), read);
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }

    /** As pq_scan.c check_agg: number keys and value (unless only COUNT), no float SUM. */
    private static void checkAggregate(ParquetScanPlan plan) {
        List<DriveColumn> cols = plan.columns();
        for (int k : plan.keys()) {
            if (cols.get(k).fieldType() == FieldType.BYTES) {
                throw new IllegalArgumentException("key column " + cols.get(k).name()
                        + " is a BYTE_ARRAY: keys are numbers");
            }
        }
        if (plan.ops() != ParquetScanPlan.OP_COUNT) {
            FieldType t = cols.get(plan.value()).fieldType();
            if (t == FieldType.BYTES) {
                throw new IllegalArgumentException("value column " + cols.get(plan.value())
                        .name() + " is a BYTE_ARRAY: SUM, MIN and MAX read numbers");
            }
            if ((plan.ops() & ParquetScanPlan.OP_SUM) != 0
                    && (t == FieldType.F32 || t == FieldType.F64)) {
                throw new IllegalArgumentException("SUM of a floating-point column ("
                        + cols.get(plan.value()).name() + ") is not the drive's");
            }
        }
    }
}
