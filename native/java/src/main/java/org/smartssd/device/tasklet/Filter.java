package org.smartssd.device.tasklet;

import org.smartssd.device.TaskletFailedException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.TaskletSpec;

/**
 * The filter tasklet (id 3): a {@link Predicate} over typed fields (null: every record
 * matches), and what to return for each match ({@link Mode}). Immutable.
 *
 * <pre>{@code
 * Filter f = Filter.project(Predicate.and(Predicate.eq(2, 404), Predicate.gt(3, 1000)), 0, 3)
 *         .limit(100);
 * }</pre>
 *
 * <p>Params: {@value #PARAMS_BYTES} bytes, the projected field indexes, the tree. The output
 * by mode, then the trailer (aux = matches; in PAGES mode, pages reported).
 */
public final class Filter {
    public static final int PARAMS_BYTES = 8;
    public static final int PAGE_ITEM_BYTES = 24;

    /** What the drive returns per match ({@code enum ss_bt_filter_mode}). */
    public enum Mode {
        /** The whole records (FIXED: record bytes; TEXT: the line and its delimiter). */
        RECORDS(0),
        /** The projected fields of each match ({@link Projection}). */
        PROJECT(1),
        /** One item per page holding a match (Kang §6.5.3). */
        PAGES(2),
        /** Only the number of matches, in the trailer. */
        COUNT(3);

        final int code;

        Mode(int code) {
            this.code = code;
        }
    }

    private final Mode mode;
    private final Predicate where;
    private final int[] proj;
    private final long limit;

    private Filter(Mode mode, Predicate where, int[] proj, long limit) {
        this.mode = mode;
        this.where = where;
        this.proj = proj;
        this.limit = limit;
    }

    /** Returns the matching records. */
    public static Filter records(Predicate where) {
        return new Filter(Mode.RECORDS, where, new int[0], 0);
    }

    /** Returns these fields of each match. */
    public static Filter project(Predicate where, int... fields) {
        if (fields.length < 1 || fields.length > RecordLayout.MAX_FIELDS) {
            throw new IllegalArgumentException("PROJECT mode needs 1.." + RecordLayout.MAX_FIELDS
                    + " fields, got " + fields.length);
        }
        for (int f : fields) {
            Fields.checkIndex(f, "projected");
        }
        return new Filter(Mode.PROJECT, where, fields.clone(), 0);
    }

    /** Returns the pages holding a match. */
    public static Filter pages(Predicate where) {
        return new Filter(Mode.PAGES, where, new int[0], 0);
    }

    /** Returns only the number of matches. */
    public static Filter count(Predicate where) {
        return new Filter(Mode.COUNT, where, new int[0], 0);
    }

    /** Stops after this many matches (pages in PAGES mode); 0: no limit. */
    public Filter limit(long matches) {
        if (matches < 0 || matches > 0xffffffffL) {
            throw new IllegalArgumentException("limit " + matches + " outside 0..2^32-1");
        }
        return new Filter(mode, where, proj, matches);
    }

    public Mode mode() {
        return mode;
    }

    /** The predicate, or null when every record matches. */
    public Predicate where() {
        return where;
    }

    public int[] projection() {
        return proj.clone();
    }

    public long limit() {
        return limit;
    }

    /** The params bytes ({@code struct ss_bt_filter_params}, projection, tree). */
    public byte[] params() {
        byte[] tree = where == null ? new byte[0] : where.encode();
        ByteBuffer b = ByteBuffer.allocate(PARAMS_BYTES + proj.length + tree.length)
                .order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) mode.code).put((byte) proj.length).putShort((short) tree.length)
                .putInt((int) limit);
        for (int f : proj) {
            b.put((byte) f);
        }
        return b.put(tree).array();
    }

    /**
     * The filter described by params bytes (the inverse of {@link #params()}).
     *
     * @throws IllegalArgumentException for bytes the drive would refuse
     */
    public static Filter parse(byte[] params) {
        if (params.length < PARAMS_BYTES) {
            throw new IllegalArgumentException("filter params are at least " + PARAMS_BYTES
                    + " bytes, got " + params.length);
        }
        ByteBuffer b = ByteBuffer.wrap(params).order(ByteOrder.LITTLE_ENDIAN);
        int code = b.get() & 0xff;
        int nproj = b.get() & 0xff;
        int treeLen = Short.toUnsignedInt(b.getShort());
        long limit = Integer.toUnsignedLong(b.getInt());
        Mode mode = null;
        for (Mode m : Mode.values()) {
            if (m.code == code) {
                mode = m;
            }
        }
        if (mode == null) {
            throw new IllegalArgumentException("filter mode " + code + " is not 0..3");
        }
        if (params.length != PARAMS_BYTES + nproj + treeLen) {
            throw new IllegalArgumentException("filter params with " + nproj + " projected "
                    + "fields and a " + treeLen + "-byte tree are "
                    + (PARAMS_BYTES + nproj + treeLen) + " bytes, got " + params.length);
        }
        int[] proj = new int[nproj];
        for (int i = 0; i < nproj; i++) {
            proj[i] = b.get() & 0xff;
        }
        if ((mode == Mode.PROJECT) != (nproj > 0)) {
            throw new IllegalArgumentException("filter mode " + mode + " with " + nproj
                    + " projected fields");
        }
        Predicate where = treeLen == 0 ? null : PredicateCodec.read(b);
        if (b.hasRemaining()) {
            throw new IllegalArgumentException("filter tree leaves " + b.remaining()
                    + " of its " + treeLen + " bytes unused");
        }
        return new Filter(mode, where, proj, limit);
    }

    /** The tasklet spec over {@code layout}, after checking fields against it. */
    public TaskletSpec spec(RecordLayout layout, int memoryBudget, long stepLimit) {
        if (where != null) {
            where.check(layout);
        }
        for (int f : proj) {
            Fields.type(layout, f, "projected");
        }
        return new TaskletSpec(BuiltinTasklet.FILTER.id(), layout, params(), memoryBudget,
                stepLimit);
    }

    /** A page holding a match: its LBA (none for an inline object), object, byte offset. */
    public record PageItem(long lba, long oid, long pageOffset) {
        /** LBA of a page of an object stored inline in the object table. */
        public static final long INLINE = -1L;

        public boolean inline() {
            return lba == INLINE;
        }
    }

    /**
     * A decoded output. Only the list of the filter's mode is filled: {@code records} (raw
     * record bytes; TEXT lines without their delimiter), {@code rows} (projected values) or
     * {@code pages}. {@code matches} is the trailer's aux.
     */
    public record Output(Mode mode, List<byte[]> records, List<List<Object>> rows,
                         List<PageItem> pages, Trailer trailer) {
        public long matches() {
            return trailer.aux();
        }
    }

    /** Decodes an output of this filter over {@code layout}. */
    public Output decode(byte[] output, RecordLayout layout) throws TaskletFailedException {
        Trailer t = Trailer.of(output, BuiltinTasklet.FILTER);
        ByteBuffer b = Trailer.items(output);
        List<byte[]> records = new ArrayList<>();
        List<List<Object>> rows = new ArrayList<>();
        List<PageItem> pages = new ArrayList<>();
        long items;
        switch (mode) {
            case RECORDS -> {
                if (layout.kind() == RecordLayout.Kind.FIXED) {
                    splitFixed(b, layout.recordSize(), records);
                } else {
                    splitLines(b, (byte) layout.lineDelim(), records);
                }
                items = records.size();
            }
            case PROJECT -> {
                Projection p = new Projection(layout, proj);
                while (b.hasRemaining()) {
                    rows.add(p.read(b));
                }
                items = rows.size();
            }
            case PAGES -> {
                if (b.remaining() % PAGE_ITEM_BYTES != 0) {
                    throw TaskletFailedException.incompleteOutput("filter PAGES output has "
                            + b.remaining() + " item bytes, not a multiple of "
                            + PAGE_ITEM_BYTES);
                }
                while (b.hasRemaining()) {
                    pages.add(new PageItem(b.getLong(), b.getLong(), b.getLong()));
                }
                items = pages.size();
            }
            default -> {
                if (b.hasRemaining()) {
                    throw TaskletFailedException.incompleteOutput("filter COUNT output has "
                            + b.remaining() + " bytes before its trailer");
                }
                items = 0;
            }
        }
        t.checkItems(items);
        return new Output(mode, List.copyOf(records), List.copyOf(rows), List.copyOf(pages), t);
    }

    /**
     * The pages of several splits' PAGES outputs without duplicates (two splits sharing a
     * page may both report it), in first-seen order.
     */
    public static List<PageItem> distinctPages(Collection<PageItem> pages) {
        Set<PageItem> seen = new LinkedHashSet<>(pages);
        return List.copyOf(seen);
    }

    private static void splitFixed(ByteBuffer b, int size, List<byte[]> out)
            throws TaskletFailedException {
        if (b.remaining() % size != 0) {
            throw TaskletFailedException.incompleteOutput("filter RECORDS output has " + b.remaining()
                    + " record bytes, not a multiple of the record size " + size);
        }
        while (b.hasRemaining()) {
            byte[] r = new byte[size];
            b.get(r);
            out.add(r);
        }
    }

    static void splitLines(ByteBuffer b, byte delim, List<byte[]> out)
            throws TaskletFailedException {
        byte[] a = new byte[b.remaining()];
        b.get(a);
        int start = 0;
        for (int i = 0; i < a.length; i++) {
            if (a[i] == delim) {
                out.add(Arrays.copyOfRange(a, start, i));
                start = i + 1;
            }
        }
        if (start != a.length) {
            throw TaskletFailedException.incompleteOutput((a.length - start) + " bytes after the last "
                    + "line delimiter of a line output");
        }
    }
}
