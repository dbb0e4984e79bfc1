package org.smartssd.scan.parquet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.smartssd.device.InputRange;

/**
 * A parquet-scan plan (firmware-tasklets/tasklets/README.md, "6 parquet-scan"): the query
 * (mode, plan columns, projection, WHERE tree, keys, value, aggregate ops, limit, flags) and
 * the footer's chunks of those columns in the chosen row groups, encoded as the tasklet's
 * params. A plan holds at most {@link #MAX_PLAN_BYTES}; {@link #encode} cuts a larger one into
 * runs of consecutive row groups, each a plan of its own.
 */
public final class ParquetScanPlan {
    /** The drive's params limit (SS_ISP_MAX_PARAMS). */
    public static final int MAX_PLAN_BYTES = 4096;

    /** enum ss_bt_pq_mode */
    public enum Mode {
        ROWS, COUNT, AGGREGATE, TOPN
    }

    /** Aggregate ops (group-aggregate's bits). */
    public static final int OP_COUNT = 1;
    public static final int OP_SUM = 2;
    public static final int OP_MIN = 4;
    public static final int OP_MAX = 8;
    /** flags */
    public static final int FLAG_ROW_EVAL = 0x1;
    public static final int FLAG_EAGER = 0x2;
    public static final int FLAG_SMALLEST = 0x4;

    private final List<DriveColumn> columns;
    private final Mode mode;
    private final int[] projection;
    private final byte[] tree;
    private final long limit;
    private final int[] keys;
    private final int value;
    private final int ops;
    private final int flags;

    private ParquetScanPlan(Builder b) {
        this.columns = List.copyOf(b.columns);
        this.mode = b.mode;
        this.projection = b.projection.clone();
        this.tree = b.tree.clone();
        this.limit = b.limit;
        this.keys = b.keys.clone();
        this.value = b.value;
        this.ops = b.ops;
        this.flags = b.flags;
        if (columns.isEmpty() || columns.size() > 16) {
            throw new IllegalArgumentException("a plan reads 1..16 columns, not "
                    + columns.size());
        }
        if (keys.length > 2) {
            throw new IllegalArgumentException("at most 2 group keys, not " + keys.length);
        }
        if (tree.length > 0xffff) {
            throw new IllegalArgumentException("a WHERE tree of " + tree.length + " bytes");
        }
        for (int i : projection) {
            checkColumn(i, "projected");
        }
        for (int i : keys) {
            checkColumn(i, "key");
        }
        checkColumn(value, "value");
    }

    private void checkColumn(int i, String what) {
        if (i < 0 || i >= columns.size()) {
            throw new IllegalArgumentException(what + " column " + i + " of "
                    + columns.size());
        }
    }

    public static Builder builder(List<DriveColumn> columns) {
        return new Builder(columns);
    }

    public List<DriveColumn> columns() {
        return columns;
    }

    public Mode mode() {
        return mode;
    }

    /** ROWS, TOPN: the plan columns each row returns, in order. */
    public int[] projection() {
        return projection.clone();
    }

    /** The WHERE tree ({@code Predicate}'s encoding over plan columns; empty: every row). */
    public byte[] tree() {
        return tree.clone();
    }

    /** AGGREGATE, TOPN: the key plan columns. */
    public int[] keys() {
        return keys.clone();
    }

    /** AGGREGATE, TOPN: the value plan column. */
    public int value() {
        return value;
    }

    /** AGGREGATE: the OP_* bits. */
    public int ops() {
        return ops;
    }

    /** ROWS, COUNT: the most matches a run returns (0: all); TOPN: n. */
    public long limit() {
        return limit;
    }

    /**
     * The plan over {@code rowGroups} of {@code footer}'s file: one run's params, or several
     * (consecutive row groups each, {@link #runs}) when one would pass {@link #MAX_PLAN_BYTES}.
     * An empty list of row groups gives no run.
     *
     * @throws IllegalArgumentException a single row group's plan is too large
     */
    public List<byte[]> encode(ParquetFooter footer, List<BlockMetaData> rowGroups) {
        List<byte[]> out = new ArrayList<>();
        for (List<BlockMetaData> run : runs(rowGroups)) {
            out.add(encodeRun(run));
        }
        return out;
    }

    /**
     * The row groups of each run {@link #encode} makes, in order: consecutive row groups, as
     * many as one run's params hold and no more than leave its {@link #chunkRanges} within
     * the {@value InputRange#MAX_PER_RUN} input ranges a run takes (a column of every row
     * group alone is a range each).
     *
     * @throws IllegalArgumentException a single row group's plan is too large
     */
    public List<List<BlockMetaData>> runs(List<BlockMetaData> rowGroups) {
        int fixed = PlanFormat.PARAMS.bytes() + columns.size() * PlanFormat.COLUMN.bytes()
                + projection.length + tree.length;
        int perGroup = PlanFormat.ROWGROUP.bytes() + columns.size() * PlanFormat.CHUNK.bytes();
        int groupsPerRun = Math.min(0xffff, (MAX_PLAN_BYTES - fixed) / perGroup);
        if (groupsPerRun < 1) {
            throw new IllegalArgumentException("a plan of " + columns.size() + " columns and a "
                    + tree.length + "-byte WHERE tree passes " + MAX_PLAN_BYTES + " bytes");
        }
        List<List<BlockMetaData>> runs = new ArrayList<>();
        int from = 0;
        while (from < rowGroups.size()) {
            int to = from + 1;
            while (to < rowGroups.size() && to - from < groupsPerRun
                    && chunkRanges(rowGroups.subList(from, to + 1)).size()
                    <= InputRange.MAX_PER_RUN) {
                to++;
            }
            runs.add(rowGroups.subList(from, to));
            from = to;
        }
        return runs;
    }

    /**
     * The file's byte ranges a run over {@code groups} needs, {offset, length} each: the
     * plan's column chunks (from the dictionary page, as the plan gives them to the drive),
     * in file order, touching ones merged. A run given only these reads no page of the other
     * columns or row groups.
     */
    public List<long[]> chunkRanges(List<BlockMetaData> groups) {
        List<long[]> chunks = new ArrayList<>();
        for (BlockMetaData g : groups) {
            for (DriveColumn c : columns) {
                ColumnChunkMetaData m = g.getColumns().get(c.leaf());
                chunks.add(new long[] {chunkStart(m), m.getTotalSize()});
            }
        }
        chunks.sort((a, b) -> Long.compare(a[0], b[0]));
        List<long[]> out = new ArrayList<>();
        for (long[] k : chunks) {
            long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && k[0] <= last[0] + last[1]) {
                last[1] = Math.max(last[1], k[0] + k[1] - last[0]);
            } else {
                out.add(k.clone());
            }
        }
        return out;
    }

    private static long chunkStart(ColumnChunkMetaData m) {
        return m.hasDictionaryPage() ? m.getDictionaryPageOffset() : m.getFirstDataPageOffset();
    }

    /**
     * The memory budget a run over {@code groups} needs: what pq_scan.c's alloc_columns
     * takes for these chunks (each column's largest chunk, its values, validity and codes
     * for the largest row group, its dictionary and, for BYTE_ARRAY, its entries and string
     * heap; the page scratch), with 64 KiB for the row buffer, the tree and the allocator's
     * rounding. AGGREGATE and TOPN take their tables from what is left: give them more.
     */
    public int memoryBudget(List<BlockMetaData> groups) {
        long maxRows = 0;
        long maxUnc = 0;
        for (BlockMetaData g : groups) {
            maxRows = Math.max(maxRows, g.getRowCount());
        }
        long total = 64 * 1024 + maxRows / 8 + 1;
        for (DriveColumn c : columns) {
            long chunk = 0;
            long unc = 0;
            for (BlockMetaData g : groups) {
                ColumnChunkMetaData m = g.getColumns().get(c.leaf());
                chunk = Math.max(chunk, m.getTotalSize());
                unc = Math.max(unc, m.getTotalUncompressedSize());
            }
            maxUnc = Math.max(maxUnc, unc);
            total += chunk + maxRows * (8 + 4) + maxRows / 8 + 1 + 2 * unc + 64;
            if (c.type() == DriveColumn.T_BYTE_ARRAY) {
                total += (unc / 4 + 1) * 8 + unc; // entries: struct ss_pq_bytes
            }
        }
        total += maxUnc;
        if (total > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a parquet-scan run of " + total + " bytes");
        }
        return (int) ((total + 4095) & ~4095L);
    }

    private byte[] encodeRun(List<BlockMetaData> groups) {
        int n = PlanFormat.PARAMS.bytes() + columns.size() * PlanFormat.COLUMN.bytes()
                + groups.size() * (PlanFormat.ROWGROUP.bytes()
                + columns.size() * PlanFormat.CHUNK.bytes()) + projection.length + tree.length;
        ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        PlanFormat.PARAMS.put(b, columns.size(), mode.ordinal(), projection.length, keys.length,
                groups.size(), tree.length, limit, keys.length > 0 ? keys[0] : 0,
                keys.length > 1 ? keys[1] : 0, value, ops, flags);
        for (DriveColumn c : columns) {
            int encodings = 0;
            for (BlockMetaData g : groups) {
                encodings |= ParquetFooter.encodingBits(g.getColumns().get(c.leaf()));
            }
            PlanFormat.COLUMN.put(b, c.type(), c.logical(), c.scale(), c.maxDefinitionLevel(),
                    encodings);
        }
        for (BlockMetaData g : groups) {
            PlanFormat.ROWGROUP.put(b, g.getRowCount());
        }
        for (BlockMetaData g : groups) {
            for (DriveColumn c : columns) {
                ColumnChunkMetaData m = g.getColumns().get(c.leaf());
                long start = chunkStart(m);
                PlanFormat.CHUNK.put(b, start, m.hasDictionaryPage() ? start : 0,
                        m.getTotalSize(), m.getTotalUncompressedSize(), m.getValueCount(),
                        ParquetFooter.codec(m));
            }
        }
        for (int p : projection) {
            b.put((byte) p);
        }
        b.put(tree);
        return b.array();
    }

    /** Builds a plan; by default ROWS of every column, no WHERE tree, no limit. */
    public static final class Builder {
        private final List<DriveColumn> columns;
        private Mode mode = Mode.ROWS;
        private int[] projection;
        private byte[] tree = new byte[0];
        private long limit;
        private int[] keys = new int[0];
        private int value;
        private int ops;
        private int flags;

        private Builder(List<DriveColumn> columns) {
            this.columns = List.copyOf(columns);
            this.projection = java.util.stream.IntStream.range(0, columns.size()).toArray();
        }

        /** ROWS: the projected rows of each match (the projection's default: every column). */
        public Builder rows(int... projection) {
            this.mode = Mode.ROWS;
            this.projection = projection.clone();
            return this;
        }

        /** COUNT: only the number of matches. */
        public Builder count() {
            this.mode = Mode.COUNT;
            this.projection = new int[0];
            return this;
        }

        /** AGGREGATE of {@code value} by up to two {@code keys}; {@code ops} OP_* bits. */
        public Builder aggregate(int ops, int value, int... keys) {
            this.mode = Mode.AGGREGATE;
            this.projection = new int[0];
            this.ops = ops;
            this.value = value;
            this.keys = keys.clone();
            return this;
        }

        /** TOPN: per group of {@code keys}, the {@code n} rows best by {@code value}. */
        public Builder topN(int n, int value, boolean smallest, int[] keys, int... projection) {
            this.mode = Mode.TOPN;
            this.limit = n;
            this.value = value;
            this.keys = keys.clone();
            this.projection = projection.clone();
            this.flags = smallest ? (flags | FLAG_SMALLEST) : (flags & ~FLAG_SMALLEST);
            return this;
        }

        /** The WHERE tree (org.smartssd.device.tasklet.Predicate's encoding). */
        public Builder where(byte[] tree) {
            this.tree = Objects.requireNonNull(tree, "tree").clone();
            return this;
        }

        /** ROWS, COUNT: stop after {@code n} matches (0: none). */
        public Builder limit(long n) {
            this.limit = n;
            return this;
        }

        public Builder flags(int flags) {
            this.flags = flags;
            return this;
        }

        public ParquetScanPlan build() {
            return new ParquetScanPlan(this);
        }
    }
}
