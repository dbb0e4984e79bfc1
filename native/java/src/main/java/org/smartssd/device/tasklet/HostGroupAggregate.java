package org.smartssd.device.tasklet;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.FieldType;

/**
 * The group-aggregate tasklet on the host: COUNT, SUM (wrapping, checked or double), MIN and
 * MAX per group of up to four keys, keys 2..4 packed into the second key as the drive packs
 * them. The host never runs out of group memory, so a group is one item (the drive may spill
 * partials, which merge to the same result).
 */
final class HostGroupAggregate extends HostRecordTasklet {
    private final GroupAggregate agg;
    private final int bits3;
    private final int bits4;
    private final long mask2;
    private final boolean signed;
    private final GroupAggregate.SumKind sumKind;
    private final Map<GroupKey, long[]> groups = new LinkedHashMap<>();
    private final long[] key = new long[2];

    private HostGroupAggregate(RecordLayout layout, GroupAggregate agg, Predicate where) {
        super(BuiltinTasklet.GROUP_AGGREGATE, layout, where);
        this.agg = agg;
        int[] k = agg.keys();
        if (k.length >= 3) {
            int b2 = GroupAggregate.packedBits(layout, k[1]);
            bits3 = GroupAggregate.packedBits(layout, k[2]);
            bits4 = k.length == 4 ? GroupAggregate.packedBits(layout, k[3]) : 0;
            mask2 = HostFields.mask(b2);
        } else {
            bits3 = 0;
            bits4 = 0;
            mask2 = 0;
        }
        signed = agg.signedValue(layout);
        sumKind = agg.sumKind(layout);
    }

    /** The host version of group-aggregate params, with or without a WHERE stage. */
    static HostGroupAggregate of(RecordLayout layout, byte[] params) {
        GroupAggregate g = WhereParams.parseGroupAggregate(params);
        g.spec(layout, 0, 0);
        return new HostGroupAggregate(layout, g, WhereParams.groupAggregateWhere(params));
    }

    @Override
    void take(byte[] b, int off, int len) {
        int[] k = agg.keys();
        if (!fields.keys(k, b, off, len, key)) {
            return;
        }
        long k1 = key[0];
        long k2 = key[1];
        if (k.length >= 3) {
            if (!fields.intField(k[2], b, off, len)) {
                return;
            }
            long k3 = fields.value();
            long k4 = 0;
            if (k.length == 4) {
                if (!fields.intField(k[3], b, off, len)) {
                    return;
                }
                k4 = fields.value();
            }
            long packed = (k2 & mask2) << bits3 | (k3 & HostFields.mask(bits3));
            k2 = bits4 != 0 ? packed << bits4 | (k4 & HostFields.mask(bits4)) : packed;
        }
        long x = 0;
        if (agg.value() >= 0) {
            if (!fields.intField(agg.value(), b, off, len)) {
                return;
            }
            x = fields.value();
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
                    + (fields.layout().fields().get(agg.value()).type() == FieldType.F32
                    ? RecordLayout.fromF32Key(x) : RecordLayout.fromF64Key(x)));
        };
        if (Fields.compare(x, a[2], signed) < 0) {
            a[2] = x;
        }
        if (Fields.compare(x, a[3], signed) > 0) {
            a[3] = x;
        }
    }

    @Override
    void writeItems() {
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
    }
}
