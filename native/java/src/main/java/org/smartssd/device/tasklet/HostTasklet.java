package org.smartssd.device.tasklet;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.TaskletSpec;

/**
 * The host version of the built-in filter, group-aggregate and top-N tasklets: the same
 * params, the same records ({@link SplitRecords}), the same field reads (big-endian FIXED
 * fields, bit fields, TEXT columns that are {@code -?[0-9]+} within the type's range, a
 * leaf false where a field has no value) and the same output bytes, trailer included, so a
 * caller decodes either side's output with one decoder ({@link Filter#decode},
 * {@link GroupAggregate#decode}, {@link TopN#decode}) and the answers cannot differ. The host
 * never runs out of group memory, so a group is one item (the drive may spill partials,
 * which merge to the same result). Not thread-safe: one instance per run.
 *
 * <pre>{@code
 * HostTasklet h = HostTasklet.of(spec);
 * SplitRecords.cut(spec.layout(), size, start, length, in::read, h::accept);
 * byte[] output = h.finish();
 * }</pre>
 */
public final class HostTasklet {
    private final BuiltinTasklet tasklet;
    private final RecordLayout layout;
    private final Predicate where;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final long[] v = new long[1];
    private final long[] key = new long[2];
    private long records;
    private long items;
    private long matches;
    // filter
    private Filter filter;
    // group-aggregate
    private GroupAggregate agg;
    private int bits3;
    private int bits4;
    private long mask2;
    private boolean aggSigned;
    private GroupAggregate.SumKind sumKind;
    private Map<GroupKey, long[]> groups;
    // top-n
    private TopN top;
    private Comparator<Long> ranking;
    private Map<GroupKey, List<TopN.Item>> best;
    private boolean done;

    private HostTasklet(BuiltinTasklet tasklet, RecordLayout layout, Predicate where) {
        this.tasklet = tasklet;
        this.layout = layout;
        this.where = where;
        if (where != null) {
            where.check(layout);
        }
    }

    /**
     * The host version of {@code spec}: filter (not PAGES, which names the drive's pages),
     * group-aggregate or top-N with their WHERE stage.
     *
     * @throws IllegalArgumentException for another tasklet or params the drive would refuse
     */
    public static HostTasklet of(TaskletSpec spec) {
        BuiltinTasklet t = BuiltinTasklet.of(spec.taskletId());
        RecordLayout l = spec.layout();
        switch (t) {
            case FILTER -> {
                Filter f = Filter.parse(spec.params());
                if (f.mode() == Filter.Mode.PAGES) {
                    throw new IllegalArgumentException("filter PAGES reports the drive's page "
                            + "addresses: it has no host version");
                }
                f.spec(l, 0, 0);
                HostTasklet h = new HostTasklet(t, l, f.where());
                h.filter = f;
                return h;
            }
            case GROUP_AGGREGATE -> {
                byte[] p = spec.params();
                GroupAggregate g = WhereParams.parseGroupAggregate(p);
                g.spec(l, 0, 0);
                HostTasklet h = new HostTasklet(t, l, WhereParams.groupAggregateWhere(p));
                h.agg = g;
                int[] k = g.keys();
                if (k.length >= 3) {
                    int b2 = GroupAggregate.packedBits(l, k[1]);
                    h.bits3 = GroupAggregate.packedBits(l, k[2]);
                    h.bits4 = k.length == 4 ? GroupAggregate.packedBits(l, k[3]) : 0;
                    h.mask2 = mask(b2);
                }
                h.aggSigned = g.signedValue(l);
                h.sumKind = g.sumKind(l);
                h.groups = new LinkedHashMap<>();
                return h;
            }
            case TOP_N -> {
                byte[] p = spec.params();
                TopN n = WhereParams.parseTopN(p);
                n.spec(l, 0, 0);
                HostTasklet h = new HostTasklet(t, l, WhereParams.topNWhere(p));
                h.top = n;
                h.ranking = TopN.ranking(n.isSmallest(), n.signedValue(l));
                h.best = new LinkedHashMap<>();
                return h;
            }
            default -> throw new IllegalArgumentException("tasklet " + t.taskletName()
                    + " has no host version");
        }
    }

    private static long mask(int bits) {
        return bits >= 64 ? -1L : (1L << bits) - 1;
    }

    /** Records examined so far. */
    public long recordsIn() {
        return records;
    }

    /**
     * One record (a FIXED record's bytes, a TEXT line without its delimiter).
     *
     * @return false once the run is done (a filter's limit reached): take no more
     */
    public boolean accept(byte[] b, int off, int len) {
        if (done) {
            return false;
        }
        records++;
        if (where != null && eval(where, b, off, len) != TRUE) {
            return true;
        }
        switch (tasklet) {
            case FILTER -> filterMatch(b, off, len);
            case GROUP_AGGREGATE -> aggregate(b, off, len);
            default -> rank(b, off, len);
        }
        return !done;
    }

    /** The output as the drive writes it: the items, then the trailer. */
    public byte[] finish() {
        long aux = 0;
        if (tasklet == BuiltinTasklet.FILTER) {
            aux = matches;
        } else if (tasklet == BuiltinTasklet.GROUP_AGGREGATE) {
            ByteBuffer it = le(GroupAggregate.ITEM_BYTES);
            for (Map.Entry<GroupKey, long[]> g : groups.entrySet()) {
                long[] a = g.getValue();
                it.clear();
                it.putLong(g.getKey().key1()).putLong(g.getKey().key2()).putLong(a[0])
                        .putLong(agg.ops().contains(GroupAggregate.Op.SUM) ? a[1] : 0)
                        .putLong(agg.ops().contains(GroupAggregate.Op.MIN) ? a[2] : 0)
                        .putLong(agg.ops().contains(GroupAggregate.Op.MAX) ? a[3] : 0);
                out.write(it.array(), 0, it.position());
                items++;
            }
        } else {
            for (List<TopN.Item> l : best.values()) {
                for (TopN.Item i : l) {
                    byte[] payload = i.payload();
                    ByteBuffer h = le(TopN.ITEM_HEADER_BYTES);
                    h.putLong(i.key1()).putLong(i.key2()).putLong(i.value())
                            .putInt(payload.length).putInt(0);
                    out.write(h.array(), 0, h.position());
                    out.write(payload, 0, payload.length);
                    items++;
                }
            }
        }
        ByteBuffer t = le(Trailer.BYTES);
        t.putInt(Trailer.MAGIC).putInt(tasklet.id()).putLong(records).putLong(items)
                .putLong(aux);
        out.write(t.array(), 0, t.position());
        return out.toByteArray();
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private void filterMatch(byte[] b, int off, int len) {
        matches++;
        switch (filter.mode()) {
            case RECORDS -> {
                out.write(b, off, len);
                if (layout.kind() == RecordLayout.Kind.TEXT) {
                    out.write(layout.lineDelim());
                }
                items++;
            }
            case PROJECT -> {
                project(filter.projection(), b, off, len, out);
                items++;
            }
            default -> {
            }
        }
        if (filter.limit() != 0 && matches >= filter.limit()) {
            done = true;
        }
    }

    private void aggregate(byte[] b, int off, int len) {
        int[] k = agg.keys();
        if (!keys(k, b, off, len)) {
            return;
        }
        long k1 = key[0];
        long k2 = key[1];
        if (k.length >= 3) {
            if (!intField(k[2], b, off, len)) {
                return;
            }
            long k3 = v[0];
            long k4 = 0;
            if (k.length == 4) {
                if (!intField(k[3], b, off, len)) {
                    return;
                }
                k4 = v[0];
            }
            long packed = (k2 & mask2) << bits3 | (k3 & mask(bits3));
            k2 = bits4 != 0 ? packed << bits4 | (k4 & mask(bits4)) : packed;
        }
        long x = 0;
        if (agg.value() >= 0) {
            if (!intField(agg.value(), b, off, len)) {
                return;
            }
            x = v[0];
        }
        long[] a = groups.get(new GroupKey(k1, k2));
        if (a == null) {
            a = new long[] {0, 0, x, x};
            groups.put(new GroupKey(k1, k2), a);
        }
        a[0]++;
        a[1] = switch (sumKind) {
            case WRAPPING -> a[1] + x;
            case CHECKED -> Math.addExact(a[1], x);
            case DOUBLE -> Double.doubleToRawLongBits(Double.longBitsToDouble(a[1])
                    + (layout.fields().get(agg.value()).type() == FieldType.F32
                    ? RecordLayout.fromF32Key(x) : RecordLayout.fromF64Key(x)));
        };
        if (Fields.compare(x, a[2], aggSigned) < 0) {
            a[2] = x;
        }
        if (Fields.compare(x, a[3], aggSigned) > 0) {
            a[3] = x;
        }
    }

    /** The first two of {@code k} into key[0], key[1] (0 when unused); false: one has no
     *  value, and the drive skips the record. */
    private boolean keys(int[] k, byte[] b, int off, int len) {
        for (int i = 0; i < 2; i++) {
            key[i] = 0;
            if (i < k.length) {
                if (!intField(k[i], b, off, len)) {
                    return false;
                }
                key[i] = v[0];
            }
        }
        return true;
    }

    private void rank(byte[] b, int off, int len) {
        if (!keys(top.keys(), b, off, len)) {
            return;
        }
        long k1 = key[0];
        long k2 = key[1];
        if (!intField(top.value(), b, off, len)) {
            return;
        }
        long value = v[0];
        List<TopN.Item> l = best.computeIfAbsent(new GroupKey(k1, k2), g -> new ArrayList<>());
        // after every item at least as good: ties keep the earlier record
        int at = l.size();
        while (at > 0 && ranking.compare(value, l.get(at - 1).value()) < 0) {
            at--;
        }
        if (at >= top.n()) {
            return;
        }
        byte[] payload;
        if (top.projection().length > 0) {
            ByteArrayOutputStream p = new ByteArrayOutputStream();
            project(top.projection(), b, off, len, p);
            payload = p.toByteArray();
        } else {
            payload = java.util.Arrays.copyOfRange(b, off, off + len);
        }
        l.add(at, new TopN.Item(k1, k2, value, payload));
        if (l.size() > top.n()) {
            l.remove(l.size() - 1);
        }
    }

    /** The projected fields ({@link Projection}); a field without a value as 0 or "". */
    private void project(int[] fields, byte[] b, int off, int len, ByteArrayOutputStream o) {
        ByteBuffer x = le(8);
        for (int f : fields) {
            if (layout.fields().get(f).type() == FieldType.BYTES) {
                int[] r = bytesField(f, b, off, len);
                int n = r == null ? 0 : r[1];
                o.write(n & 0xff);
                o.write(n >>> 8);
                if (n > 0) {
                    o.write(b, r[0], n);
                }
            } else {
                x.clear();
                x.putLong(intField(f, b, off, len) ? v[0] : 0);
                o.write(x.array(), 0, 8);
            }
        }
    }

    /** SQL's truth values, as the drive's predicate evaluation has them. */
    private static final int FALSE = 0;
    private static final int TRUE = 1;
    private static final int UNKNOWN = 2;

    private static int truth(boolean b) {
        return b ? TRUE : FALSE;
    }

    private int eval(Predicate p, byte[] b, int off, int len) {
        if (p instanceof Predicate.And || p instanceof Predicate.Or) {
            boolean and = p instanceof Predicate.And;
            List<Predicate> children = and ? ((Predicate.And) p).children()
                    : ((Predicate.Or) p).children();
            int res = truth(and);
            for (Predicate c : children) {
                int x = eval(c, b, off, len);
                if (x == truth(!and)) {
                    return x;
                }
                if (x == UNKNOWN) {
                    res = UNKNOWN;
                }
            }
            return res;
        }
        if (p instanceof Predicate.Not n) {
            int x = eval(n.child(), b, off, len);
            return x == UNKNOWN ? UNKNOWN : truth(x == FALSE);
        }
        if (p instanceof Predicate.IsNull n) {
            return truth(layout.fields().get(n.field()).type() == FieldType.BYTES
                    ? bytesField(n.field(), b, off, len) == null
                    : !intField(n.field(), b, off, len));
        }
        if (p instanceof Predicate.Cmp c) {
            if (!intField(c.field(), b, off, len)) {
                return UNKNOWN;
            }
            int cmp = Fields.compare(v[0], c.constant(), Fields.signed(layout, c.field()));
            return truth(switch (c.op()) {
                case EQ -> cmp == 0;
                case NE -> cmp != 0;
                case LT -> cmp < 0;
                case LE -> cmp <= 0;
                case GT -> cmp > 0;
                case GE -> cmp >= 0;
            });
        }
        Predicate.Bytes m = (Predicate.Bytes) p;
        int[] r = bytesField(m.field(), b, off, len);
        if (r == null) {
            return UNKNOWN;
        }
        return truth(bytesMatch(m, b, r));
    }

    private static boolean bytesMatch(Predicate.Bytes m, byte[] b, int[] r) {
        byte[] k = m.bytes();
        int at = r[0];
        int n = r[1];
        return switch (m.op()) {
            case EQUALS -> n == k.length && java.util.Arrays.equals(b, at, at + n, k, 0, n);
            case PREFIX -> n >= k.length
                    && java.util.Arrays.equals(b, at, at + k.length, k, 0, k.length);
            case SUFFIX -> n >= k.length
                    && java.util.Arrays.equals(b, at + n - k.length, at + n, k, 0, k.length);
            case CONTAINS -> contains(b, at, n, k);
        };
    }

    private static boolean contains(byte[] h, int at, int n, byte[] k) {
        for (int i = 0; i + k.length <= n; i++) {
            if (java.util.Arrays.equals(h, at + i, at + i + k.length, k, 0, k.length)) {
                return true;
            }
        }
        return k.length == 0;
    }

    /** Whether FIXED field {@code fd}'s null flag is set in the record. */
    private static boolean isNull(Field fd, byte[] b, int off, int len) {
        if (!fd.nullable()) {
            return false;
        }
        int k = fd.nullBit() - 1;
        return k / 8 >= len || (b[off + k / 8] & (0x80 >>> (k % 8))) != 0;
    }

    /** Numeric field {@code f} into {@code v[0]} as the drive reads it; false: no value. */
    private boolean intField(int f, byte[] b, int off, int len) {
        Field fd = layout.fields().get(f);
        FieldType t = fd.type();
        int w = t.bits() / 8;
        boolean signed = t == FieldType.I32 || t == FieldType.I64;
        long raw = 0;
        if (layout.kind() == RecordLayout.Kind.FIXED) {
            if (fd.offset() + w > len || isNull(fd, b, off, len)) {
                return false;
            }
            for (int i = 0; i < w; i++) {
                raw = raw << 8 | (b[off + fd.offset() + i] & 0xffL);
            }
            raw = switch (t) {
                case I32, DATE -> (int) raw;
                case F32 -> RecordLayout.f32Key((int) raw);
                case F64 -> RecordLayout.f64Key(raw);
                default -> raw;
            };
        } else {
            int[] c = column(fd.offset(), b, off, len);
            if (c == null || !parseDecimal(b, c[0], c[1], signed)) {
                return false;
            }
            raw = v[0];
            if (w < 8 && (signed ? raw < Integer.MIN_VALUE || raw > Integer.MAX_VALUE
                    : Long.compareUnsigned(raw, mask(8 * w)) > 0)) {
                return false;
            }
        }
        raw >>>= fd.shift();
        if (fd.bits() != 0 && fd.bits() < 64) {
            raw &= mask(fd.bits());
        }
        v[0] = raw;
        return true;
    }

    /** {@code -?[0-9]+} (the sign only for signed types) within 64 bits, into v[0]. */
    private boolean parseDecimal(byte[] b, int at, int n, boolean signed) {
        int i = 0;
        boolean neg = false;
        if (n > 0 && b[at] == '-' && signed) {
            neg = true;
            i = 1;
        }
        if (i == n) {
            return false;
        }
        long x = 0;
        for (; i < n; i++) {
            int d = b[at + i] - '0';
            if (d < 0 || d > 9) {
                return false;
            }
            if (Long.compareUnsigned(x, Long.divideUnsigned(-1L - d, 10)) > 0) {
                return false;
            }
            x = x * 10 + d;
        }
        if (signed && (neg ? Long.compareUnsigned(x, Long.MIN_VALUE) > 0 : x < 0)) {
            return false;
        }
        v[0] = neg ? -x : x;
        return true;
    }

    /** {start, length} of bytes field {@code f}, null when the record has none. */
    private int[] bytesField(int f, byte[] b, int off, int len) {
        Field fd = layout.fields().get(f);
        if (layout.kind() == RecordLayout.Kind.TEXT) {
            return column(fd.offset(), b, off, len);
        }
        if (fd.offset() + fd.width() > len || isNull(fd, b, off, len)) {
            return null;
        }
        return new int[] {off + fd.offset(), fd.width()};
    }

    /** {start, length} of text column {@code col} of a line, null when the line is shorter. */
    private int[] column(int col, byte[] b, int off, int len) {
        byte sep = (byte) layout.fieldSep();
        int c = 0;
        int start = 0;
        int i = 0;
        for (; i < len; i++) {
            if (b[off + i] != sep) {
                continue;
            }
            if (c == col) {
                break;
            }
            c++;
            start = i + 1;
        }
        return c == col ? new int[] {off + start, i - start} : null;
    }
}
