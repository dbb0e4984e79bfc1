package org.smartssd.device.tasklet;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.smartssd.device.RecordLayout;

/**
 * The top-N tasklet on the host: per group of up to two keys, the N best records by the
 * value (largest or smallest), ties kept in record order, each with its payload (the record,
 * or its projected fields).
 */
final class HostTopN extends HostRecordTasklet {
    private final TopN top;
    private final Comparator<Long> ranking;
    private final Map<GroupKey, List<TopN.Item>> best = new LinkedHashMap<>();
    private final long[] key = new long[2];

    private HostTopN(RecordLayout layout, TopN top, Predicate where) {
        super(BuiltinTasklet.TOP_N, layout, where);
        this.top = top;
        this.ranking = TopN.ranking(top.isSmallest(), top.signedValue(layout));
    }

    /** The host version of top-N params, with or without a WHERE stage. */
    static HostTopN of(RecordLayout layout, byte[] params) {
        TopN n = WhereParams.parseTopN(params);
        n.spec(layout, 0, 0);
        return new HostTopN(layout, n, WhereParams.topNWhere(params));
    }

    @Override
    void take(byte[] b, int off, int len) {
        if (!fields.keys(top.keys(), b, off, len, key)) {
            return;
        }
        long k1 = key[0];
        long k2 = key[1];
        if (!fields.intField(top.value(), b, off, len)) {
            return;
        }
        long value = fields.value();
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
            fields.project(top.projection(), b, off, len, p);
            payload = p.toByteArray();
        } else {
            payload = Arrays.copyOfRange(b, off, off + len);
        }
        l.add(at, new TopN.Item(k1, k2, value, payload));
        if (l.size() > top.n()) {
            l.remove(l.size() - 1);
        }
    }

    @Override
    void writeItems() {
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
}
