package org.smartssd.device.tasklet;

import org.smartssd.device.TaskletFailedException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.TaskletSpec;

/**
 * The top-N tasklet (id 2): per group (0..2 integer key fields), the n records with the
 * largest (or smallest) value field; ties keep the earlier record. Immutable.
 *
 * <pre>{@code
 * TopN top = TopN.largest(10, 3).groupBy(1).project(0, 3);
 * }</pre>
 *
 * <p>Params are {@value #PARAMS_BYTES} bytes plus one byte per projected field. The output is,
 * per group and best first, a {@value #ITEM_HEADER_BYTES}-byte header and its payload (the
 * projected fields, or the whole record without projection), then the trailer (aux =
 * spills). {@link Merger} takes the n best of the union of partial lists: the exact answer.
 */
public final class TopN {
    public static final int PARAMS_BYTES = 12;
    public static final int ITEM_HEADER_BYTES = 32;
    public static final int MAX_N = 1024;
    static final int FLAG_SMALLEST = 0x1;

    private final int n;
    private final int value;
    private final boolean smallest;
    private final int[] keys;
    private final int[] proj;
    private final int maxGroups;

    private TopN(int n, int value, boolean smallest, int[] keys, int[] proj, int maxGroups) {
        this.n = n;
        this.value = value;
        this.smallest = smallest;
        this.keys = keys;
        this.proj = proj;
        this.maxGroups = maxGroups;
    }

    private static TopN of(int n, int valueField, boolean smallest) {
        if (n < 1 || n > MAX_N) {
            throw new IllegalArgumentException("top-n keeps 1.." + MAX_N + " per group, got " + n);
        }
        Fields.checkIndex(valueField, "value");
        return new TopN(n, valueField, smallest, new int[0], new int[0], 0);
    }

    /** The n records with the largest value field. */
    public static TopN largest(int n, int valueField) {
        return of(n, valueField, false);
    }

    /** The n records with the smallest value field. */
    public static TopN smallest(int n, int valueField) {
        return of(n, valueField, true);
    }

    /** Per group of 0, 1 or 2 integer fields. */
    public TopN groupBy(int... keyFields) {
        if (keyFields.length > 2) {
            throw new IllegalArgumentException("top-n groups by at most 2 fields, got "
                    + keyFields.length);
        }
        for (int k : keyFields) {
            Fields.checkIndex(k, "key");
        }
        return new TopN(n, value, smallest, keyFields.clone(), proj, maxGroups);
    }

    /** Payloads hold these fields (ss_bt_proj) instead of the whole record. */
    public TopN project(int... fields) {
        if (fields.length > RecordLayout.MAX_FIELDS) {
            throw new IllegalArgumentException("at most " + RecordLayout.MAX_FIELDS
                    + " projected fields, got " + fields.length);
        }
        for (int f : fields) {
            Fields.checkIndex(f, "projected");
        }
        return new TopN(n, value, smallest, keys, fields.clone(), maxGroups);
    }

    /** Groups held before a spill; 0 lets the drive hold what the budget holds. */
    public TopN maxGroups(int groups) {
        if (groups < 0) {
            throw new IllegalArgumentException("max groups " + groups + " is negative");
        }
        return new TopN(n, value, smallest, keys, proj, groups);
    }

    public int n() {
        return n;
    }

    public int value() {
        return value;
    }

    public boolean isSmallest() {
        return smallest;
    }

    public int[] keys() {
        return keys.clone();
    }

    /** The projected fields; empty when payloads are whole records. */
    public int[] projection() {
        return proj.clone();
    }

    public int maxGroups() {
        return maxGroups;
    }

    /** The params bytes ({@code struct ss_bt_topn_params} and the projection). */
    public byte[] params() {
        ByteBuffer b = ByteBuffer.allocate(PARAMS_BYTES + proj.length)
                .order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) keys.length).put((byte) (keys.length >= 1 ? keys[0] : 0))
                .put((byte) (keys.length == 2 ? keys[1] : 0)).put((byte) value)
                .put((byte) (smallest ? FLAG_SMALLEST : 0)).put((byte) proj.length)
                .putShort((short) n).putInt(maxGroups);
        for (int f : proj) {
            b.put((byte) f);
        }
        return b.array();
    }

    /**
     * The top-N described by params bytes (the inverse of {@link #params()}).
     *
     * @throws IllegalArgumentException for bytes the drive would refuse
     */
    public static TopN parse(byte[] params) {
        if (params.length < PARAMS_BYTES) {
            throw new IllegalArgumentException("top-n params are at least " + PARAMS_BYTES
                    + " bytes, got " + params.length);
        }
        ByteBuffer b = ByteBuffer.wrap(params).order(ByteOrder.LITTLE_ENDIAN);
        int nkeys = b.get() & 0xff;
        int k1 = b.get() & 0xff;
        int k2 = b.get() & 0xff;
        int v = b.get() & 0xff;
        int flags = b.get() & 0xff;
        int nproj = b.get() & 0xff;
        int n = Short.toUnsignedInt(b.getShort());
        long max = Integer.toUnsignedLong(b.getInt());
        if (nkeys > 2 || (flags & ~FLAG_SMALLEST) != 0) {
            throw new IllegalArgumentException("top-n params: nkeys " + nkeys + ", flags 0x"
                    + Integer.toHexString(flags) + " not allowed");
        }
        if (params.length != PARAMS_BYTES + nproj) {
            throw new IllegalArgumentException("top-n params with " + nproj + " projected "
                    + "fields are " + (PARAMS_BYTES + nproj) + " bytes, got " + params.length);
        }
        int[] proj = new int[nproj];
        for (int i = 0; i < nproj; i++) {
            proj[i] = b.get() & 0xff;
        }
        int[] keys = nkeys == 0 ? new int[0] : nkeys == 1 ? new int[] {k1} : new int[] {k1, k2};
        return of(n, v, (flags & FLAG_SMALLEST) != 0).groupBy(keys).project(proj)
                .maxGroups((int) Math.min(max, Integer.MAX_VALUE));
    }

    /** The tasklet spec over {@code layout}, after checking the fields against it. */
    public TaskletSpec spec(RecordLayout layout, int memoryBudget, long stepLimit) {
        for (int k : keys) {
            Fields.requireInteger(layout, k, "key");
        }
        Fields.requireInteger(layout, value, "value");
        for (int f : proj) {
            Fields.type(layout, f, "projected");
        }
        return new TaskletSpec(BuiltinTasklet.TOP_N.id(), layout, params(), memoryBudget,
                stepLimit);
    }

    /** Whether values rank signed: the value field is I32 or I64. */
    public boolean signedValue(RecordLayout layout) {
        return Fields.signed(layout, value);
    }

    /**
     * Best first: descending values (ascending with {@code smallest}), compared signed or
     * unsigned as the drive does. Equal values compare equal, so a stable sort keeps ties in
     * arrival order.
     */
    public static Comparator<Long> ranking(boolean smallest, boolean signed) {
        return smallest ? (a, b) -> Fields.compare(a, b, signed)
                : (a, b) -> Fields.compare(b, a, signed);
    }

    /** One ranked record of a group: its value and payload (see {@link Projection}). */
    public record Item(long key1, long key2, long value, byte[] payload) {
        public Item {
            payload = payload.clone();
        }

        public GroupKey key() {
            return new GroupKey(key1, key2);
        }

        @Override
        public byte[] payload() {
            return payload.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Item i && i.key1 == key1 && i.key2 == key2 && i.value == value
                    && Arrays.equals(i.payload, payload);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(key1) * 31 + Long.hashCode(key2) * 17 + Long.hashCode(value)
                    + Arrays.hashCode(payload);
        }

        @Override
        public String toString() {
            return "Item[" + key1 + ", " + key2 + ", value " + value + ", " + payload.length
                    + " payload bytes]";
        }
    }

    /** A decoded output: items in output order (per group, best first), and the trailer. */
    public record Output(List<Item> items, Trailer trailer) {
        public long spills() {
            return trailer.aux();
        }
    }

    /** Decodes one top-N output. */
    public static Output decode(byte[] output) throws TaskletFailedException {
        return decode(output, BuiltinTasklet.TOP_N);
    }

    /** Decodes top-N items written by {@code producer} (parquet-scan's TOPN writes the same
     *  items). */
    public static Output decode(byte[] output, BuiltinTasklet producer)
            throws TaskletFailedException {
        Trailer t = Trailer.of(output, producer);
        ByteBuffer b = Trailer.items(output);
        List<Item> items = new ArrayList<>();
        while (b.hasRemaining()) {
            if (b.remaining() < ITEM_HEADER_BYTES) {
                throw TaskletFailedException.incompleteOutput("top-n output ends inside an item header ("
                        + b.remaining() + " bytes left)");
            }
            long k1 = b.getLong();
            long k2 = b.getLong();
            long v = b.getLong();
            long len = Integer.toUnsignedLong(b.getInt());
            b.getInt(); // reserved
            if (len > b.remaining()) {
                throw TaskletFailedException.incompleteOutput("top-n item payload of " + len
                        + " bytes runs past the output (" + b.remaining() + " bytes left)");
            }
            byte[] payload = new byte[(int) len];
            b.get(payload);
            items.add(new Item(k1, k2, v, payload));
        }
        t.checkItems(items.size());
        return new Output(List.copyOf(items), t);
    }

    /**
     * Per group, the n best items of all partial lists added, ties to the item added first:
     * add outputs in split order, each in output order, and the result is the exact top n.
     */
    public static final class Merger {
        private final int n;
        private final Comparator<Long> ranking;
        private final Map<GroupKey, List<Item>> groups = new LinkedHashMap<>();

        public Merger(int n, boolean smallest, boolean signedValue) {
            if (n < 1) {
                throw new IllegalArgumentException("n must be positive, got " + n);
            }
            this.n = n;
            this.ranking = ranking(smallest, signedValue);
        }

        /** A merger for outputs of {@code top} over {@code layout}. */
        public static Merger of(TopN top, RecordLayout layout) {
            return new Merger(top.n, top.smallest, top.signedValue(layout));
        }

        public Merger add(Item item) {
            groups.computeIfAbsent(item.key(), k -> new ArrayList<>()).add(item);
            return this;
        }

        public Merger addAll(Collection<Item> items) {
            items.forEach(this::add);
            return this;
        }

        /** Per group (ordered by key), at most n items, best first. */
        public Map<GroupKey, List<Item>> result() {
            Map<GroupKey, List<Item>> out = new TreeMap<>();
            groups.forEach((k, items) -> {
                List<Item> sorted = new ArrayList<>(items);
                sorted.sort(Comparator.comparing(Item::value, ranking)); // stable
                out.put(k, List.copyOf(sorted.subList(0, Math.min(n, sorted.size()))));
            });
            return Collections.unmodifiableMap(out);
        }
    }
}
