package org.smartssd.spark;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.Predicate;
import org.smartssd.device.tasklet.TopN;

/**
 * Params of group-aggregate and top-N with their WHERE stage (builtin_tasklets.h): the
 * predicate runs in front of the aggregate or the ranking in the same pass. Group-aggregate
 * carries {@code u16 tree_len} at byte 12 and the tree after its 16 bytes; top-N sets flag
 * 0x2 and appends {@code u16 tree_len} and the tree after its projection. The outputs are
 * those of the plain tasklets.
 */
final class WhereParams {
    static final int TOPN_WHERE = 0x2;

    private WhereParams() {
    }

    static byte[] groupAggregate(GroupAggregate g, Predicate where) {
        byte[] p = g.params();
        if (where == null) {
            return p;
        }
        byte[] tree = where.encode();
        ByteBuffer b = ByteBuffer.allocate(p.length + tree.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(p).putShort(12, (short) tree.length).position(p.length);
        return b.put(tree).array();
    }

    static byte[] topN(TopN t, Predicate where) {
        byte[] p = t.params();
        if (where == null) {
            return p;
        }
        byte[] tree = where.encode();
        p[4] |= TOPN_WHERE;
        ByteBuffer b = ByteBuffer.allocate(p.length + 2 + tree.length)
                .order(ByteOrder.LITTLE_ENDIAN);
        return b.put(p).putShort((short) tree.length).put(tree).array();
    }
}
