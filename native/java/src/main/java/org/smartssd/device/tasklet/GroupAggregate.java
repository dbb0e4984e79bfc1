package org.smartssd.device.tasklet;

import org.smartssd.device.TaskletFailedException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.TaskletSpec;

/**
 * The group-aggregate tasklet (id 1): COUNT/SUM/MIN/MAX of one integer field grouped by 0
 * to {@value #MAX_KEYS} integer key fields, with an optional WHERE tree ({@link WhereParams}). Immutable; build with {@link #groupBy} and the withers.
 *
 * <pre>{@code
 * GroupAggregate agg = GroupAggregate.groupBy(1).value(0).ops(Op.COUNT, Op.SUM);
 * TaskletSpec spec = agg.spec(layout, 64 * 1024, 0);
 * }</pre>
 *
 * <p>Params are {@value #PARAMS_BYTES} bytes; the output is {@value #ITEM_BYTES}-byte items
 * per group per spill, then the trailer (aux = spills). {@link Merger} merges items of spills
 * and splits exactly.
 */
public final class GroupAggregate {
    public static final int PARAMS_BYTES = 16;
    public static final int ITEM_BYTES = 48;
    /** Most key fields ({@code SS_BT_AGG_MAX_KEYS}). */
    public static final int MAX_KEYS = 4;
    /**
     * A memory budget of at most this many bytes puts the tasklet's state in the drive
     * controller's SRAM, where a table access costs a core cycle instead of a DRAM access
     * ({@code SS_ISP_SRAM_STATE_BYTES}, isp/include/ss_isp.h).
     */
    public static final int SRAM_STATE_BYTES = 24 * 1024;

    /** The aggregates ({@code SS_BT_AGG_*}). */
    public enum Op {
        COUNT(0x1), SUM(0x2), MIN(0x4), MAX(0x8),
        /** With SUM of a signed field: the run fails with -EOVERFLOW when the sum leaves
         *  the signed 64-bit range ({@code SS_BT_AGG_SUM_CHECKED}), as Spark's ANSI SUM. */
        CHECKED_SUM(0x10);

        private final int bit;

        Op(int bit) {
            this.bit = bit;
        }

        public int bit() {
            return bit;
        }
    }

    private final int[] keys;
    private final int value;
    private final Set<Op> ops;
    private final int maxGroups;

    private GroupAggregate(int[] keys, int value, Set<Op> ops, int maxGroups) {
        this.keys = keys;
        this.value = value;
        this.ops = ops;
        this.maxGroups = maxGroups;
    }

    /**
     * Groups by 0 to {@value #MAX_KEYS} integer fields (layout indexes); counts until told
     * otherwise. With 3 or 4 keys the drive packs keys 2..n into the item's key2, each in
     * {@link #packedBits} bits, key 2 highest; together they must fit 64 bits.
     */
    public static GroupAggregate groupBy(int... keyFields) {
        if (keyFields.length > MAX_KEYS) {
            throw new IllegalArgumentException("group-aggregate groups by at most " + MAX_KEYS
                    + " fields, got " + keyFields.length);
        }
        for (int k : keyFields) {
            Fields.checkIndex(k, "key");
        }
        return new GroupAggregate(keyFields.clone(), -1, Collections.unmodifiableSet(
                EnumSet.of(Op.COUNT)), 0);
    }

    /** The integer field aggregated by SUM, MIN and MAX. */
    public GroupAggregate value(int field) {
        Fields.checkIndex(field, "value");
        return new GroupAggregate(keys, field, ops, maxGroups);
    }

    /** The aggregates to compute (COUNT is always reported in the items). */
    public GroupAggregate ops(Op... which) {
        if (which.length == 0) {
            throw new IllegalArgumentException("group-aggregate needs at least one aggregate");
        }
        return new GroupAggregate(keys, value, Collections.unmodifiableSet(
                EnumSet.copyOf(Arrays.asList(which))), maxGroups);
    }

    /** Groups held before a spill; 0 (the default) lets the drive hold what the budget holds. */
    public GroupAggregate maxGroups(int groups) {
        if (groups < 0) {
            throw new IllegalArgumentException("max groups " + groups + " is negative");
        }
        return new GroupAggregate(keys, value, ops, groups);
    }

    public int[] keys() {
        return keys.clone();
    }

    /** The value field, or -1 when only COUNT is asked. */
    public int value() {
        return value;
    }

    public Set<Op> ops() {
        return ops;
    }

    public int maxGroups() {
        return maxGroups;
    }

    private int key(int i) {
        return i < keys.length ? keys[i] : 0;
    }

    /**
     * The bits the drive packs a key field in (3 or 4 keys): a bit field's bits, else all
     * of its bytes' bits, as {@code bt_field_bits}.
     */
    public static int packedBits(RecordLayout layout, int field) {
        RecordLayout.Field f = layout.fields().get(field);
        return f.bits() != 0 ? f.bits() : f.type().bits();
    }

    private boolean needsValue() {
        return ops.contains(Op.SUM) || ops.contains(Op.MIN) || ops.contains(Op.MAX);
    }

    /** How the drive sums the value field, and so how partial sums merge. */
    public enum SumKind {
        /** Modulo 2^64. */
        WRAPPING,
        /** Signed; past the 64-bit range the drive fails the run, a merge throws. */
        CHECKED,
        /** F32/F64 fields: the sum is a double's bits. */
        DOUBLE
    }

    /** How this aggregate's SUM of the value field of {@code layout} adds up. */
    public SumKind sumKind(RecordLayout layout) {
        if (value >= 0 && ops.contains(Op.SUM)) {
            FieldType t = Fields.type(layout, value, "value");
            if (t == FieldType.F32 || t == FieldType.F64) {
                return SumKind.DOUBLE;
            }
        }
        return ops.contains(Op.CHECKED_SUM) ? SumKind.CHECKED : SumKind.WRAPPING;
    }

    /** The 16 params bytes ({@code struct ss_bt_agg_params}). */
    public byte[] params() {
        if (needsValue() && value < 0) {
            throw new IllegalStateException("SUM, MIN and MAX need a value field: call value()");
        }
        int bits = 0;
        for (Op o : ops) {
            bits |= o.bit;
        }
        ByteBuffer b = ByteBuffer.allocate(PARAMS_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) keys.length).put((byte) key(0)).put((byte) key(1))
                .put((byte) Math.max(value, 0)).put((byte) bits).put((byte) key(2))
                .put((byte) key(3)).put((byte) 0).putInt(maxGroups).putInt(0);
        return b.array();
    }

    /**
     * The group-aggregate described by params bytes (the inverse of {@link #params()}).
     *
     * @throws IllegalArgumentException for bytes the drive would refuse
     */
    public static GroupAggregate parse(byte[] params) {
        if (params.length != PARAMS_BYTES) {
            throw new IllegalArgumentException("group-aggregate params are " + PARAMS_BYTES
                    + " bytes, got " + params.length);
        }
        ByteBuffer b = ByteBuffer.wrap(params).order(ByteOrder.LITTLE_ENDIAN);
        int nkeys = b.get() & 0xff;
        int k1 = b.get() & 0xff;
        int k2 = b.get() & 0xff;
        int v = b.get() & 0xff;
        int bits = b.get() & 0xff;
        int k3 = b.get() & 0xff;
        int k4 = b.get() & 0xff;
        boolean reservedZero = b.get() == 0 && (nkeys >= 3 || k3 == 0) && (nkeys >= 4 || k4 == 0);
        int max = b.getInt();
        if (!reservedZero || b.getInt() != 0) {
            throw new IllegalArgumentException("group-aggregate params have non-zero reserved "
                    + "bytes");
        }
        if (nkeys > MAX_KEYS) {
            throw new IllegalArgumentException("group-aggregate nkeys " + nkeys + " is not 0.."
                    + MAX_KEYS);
        }
        if ((bits & 0xf) == 0 || (bits & ~0x1f) != 0) {
            throw new IllegalArgumentException("group-aggregate ops 0x"
                    + Integer.toHexString(bits) + " is not a non-empty subset of 0x1f");
        }
        List<Op> ops = new ArrayList<>();
        for (Op o : Op.values()) {
            if ((bits & o.bit) != 0) {
                ops.add(o);
            }
        }
        int[] keys = java.util.Arrays.copyOf(new int[] {k1, k2, k3, k4}, nkeys);
        GroupAggregate g = groupBy(keys).ops(ops.toArray(new Op[0])).maxGroups(
                (int) Math.min(Integer.toUnsignedLong(max), Integer.MAX_VALUE));
        return g.needsValue() ? g.value(v) : g;
    }

    /**
     * The tasklet spec over {@code layout}, after checking the fields are integer fields of
     * the layout (the drive would refuse the run with -EINVAL otherwise).
     */
    public TaskletSpec spec(RecordLayout layout, int memoryBudget, long stepLimit) {
        int packed = 0;
        for (int i = 0; i < keys.length; i++) {
            Fields.requireInteger(layout, keys[i], "key");
            packed += i >= 1 ? packedBits(layout, keys[i]) : 0;
        }
        if (keys.length >= 3 && packed > 64) {
            throw new IllegalArgumentException("keys 2.." + keys.length + " take " + packed
                    + " bits together; the drive packs them into 64");
        }
        if (needsValue()) {
            Fields.requireInteger(layout, value, "value");
        }
        return new TaskletSpec(BuiltinTasklet.GROUP_AGGREGATE.id(), layout, params(),
                memoryBudget, stepLimit);
    }

    /** Whether MIN and MAX compare signed: the value field is I32 or I64. */
    public boolean signedValue(RecordLayout layout) {
        return value >= 0 && Fields.signed(layout, value);
    }

    /** One group of one spill. Unused keys and unasked aggregates are 0. */
    public record Item(long key1, long key2, long count, long sum, long min, long max) {
        public GroupKey key() {
            return new GroupKey(key1, key2);
        }

        /**
         * The exact merge of two partials of one group: count and sum add (mod 2^64, the
         * drive's arithmetic), min and max fold (signed compare for signed value fields).
         */
        public Item merge(Item o, boolean signed) {
            return merge(o, signed, SumKind.WRAPPING);
        }

        /** {@link #merge(Item, boolean)} with sums added as {@code kind} says.
         *  @throws ArithmeticException when a CHECKED sum leaves the signed 64-bit range */
        public Item merge(Item o, boolean signed, SumKind kind) {
            long s = switch (kind) {
                case WRAPPING -> sum + o.sum;
                case CHECKED -> Math.addExact(sum, o.sum);
                case DOUBLE -> Double.doubleToRawLongBits(Double.longBitsToDouble(sum)
                        + Double.longBitsToDouble(o.sum));
            };
            return new Item(key1, key2, count + o.count, s,
                    Fields.compare(o.min, min, signed) < 0 ? o.min : min,
                    Fields.compare(o.max, max, signed) > 0 ? o.max : max);
        }
    }

    /** A decoded output: the items in output order and the trailer (aux = spills). */
    public record Output(List<Item> items, Trailer trailer) {
        public long spills() {
            return trailer.aux();
        }
    }

    /** Decodes one group-aggregate output. */
    public static Output decode(byte[] output) throws TaskletFailedException {
        return decode(output, BuiltinTasklet.GROUP_AGGREGATE);
    }

    /** Decodes group-aggregate items written by {@code producer} (parquet-scan's AGGREGATE
     *  writes the same items). */
    public static Output decode(byte[] output, BuiltinTasklet producer)
            throws TaskletFailedException {
        Trailer t = Trailer.of(output, producer);
        ByteBuffer b = Trailer.items(output);
        if (b.remaining() % ITEM_BYTES != 0) {
            throw TaskletFailedException.incompleteOutput("group-aggregate output has "
                    + b.remaining()
                    + " item bytes, not a multiple of " + ITEM_BYTES);
        }
        List<Item> items = new ArrayList<>(b.remaining() / ITEM_BYTES);
        while (b.hasRemaining()) {
            items.add(new Item(b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong(),
                    b.getLong()));
        }
        t.checkItems(items.size());
        return new Output(List.copyOf(items), t);
    }

    /** Merges partial items (of spills, of splits) into one item per group, exactly. */
    public static final class Merger {
        private final boolean signed;
        private final SumKind sumKind;
        private final Map<GroupKey, Item> groups = new TreeMap<>();

        /** @param signedValue see {@link GroupAggregate#signedValue} */
        public Merger(boolean signedValue) {
            this(signedValue, SumKind.WRAPPING);
        }

        /** @param sumKind see {@link GroupAggregate#sumKind} */
        public Merger(boolean signedValue, SumKind sumKind) {
            this.signed = signedValue;
            this.sumKind = sumKind;
        }

        public Merger add(Item item) {
            groups.merge(item.key(), item, (a, b) -> a.merge(b, signed, sumKind));
            return this;
        }

        public Merger addAll(Collection<Item> items) {
            items.forEach(this::add);
            return this;
        }

        /** One item per group, ordered by key. */
        public Map<GroupKey, Item> result() {
            return Collections.unmodifiableMap(groups);
        }
    }
}
