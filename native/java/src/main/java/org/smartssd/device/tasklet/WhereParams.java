package org.smartssd.device.tasklet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.TaskletSpec;

/**
 * Params of group-aggregate and top-N with their WHERE stage (builtin_tasklets.h): the
 * predicate runs in front of the aggregate or the ranking in the same pass. Group-aggregate
 * carries {@code u16 tree_len} at byte 12 and the tree after its 16 bytes; top-N sets flag
 * 0x2 and appends {@code u16 tree_len} and the tree after its projection. The outputs are
 * those of the plain tasklets.
 */
public final class WhereParams {
    static final int TOPN_WHERE = 0x2;
    private static final int AGG_TREE_LEN_AT = 12;

    private WhereParams() {
    }

    public static byte[] groupAggregate(GroupAggregate g, Predicate where) {
        byte[] p = g.params();
        if (where == null) {
            return p;
        }
        byte[] tree = where.encode();
        ByteBuffer b = ByteBuffer.allocate(p.length + tree.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(p).putShort(AGG_TREE_LEN_AT, (short) tree.length).position(p.length);
        return b.put(tree).array();
    }

    public static byte[] topN(TopN t, Predicate where) {
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

    /**
     * The group-aggregate spec over {@code layout} that runs {@code where} (null: every
     * record) in front of the aggregate, after checking the fields of both against it.
     */
    public static TaskletSpec groupAggregateSpec(GroupAggregate g, Predicate where,
                                                 RecordLayout layout, int memoryBudget,
                                                 long stepLimit) {
        TaskletSpec plain = g.spec(layout, memoryBudget, stepLimit);
        return withWhere(plain, where, layout, groupAggregate(g, where));
    }

    /** The top-N spec over {@code layout} with its WHERE stage, checked as the plain one. */
    public static TaskletSpec topNSpec(TopN t, Predicate where, RecordLayout layout,
                                       int memoryBudget, long stepLimit) {
        TaskletSpec plain = t.spec(layout, memoryBudget, stepLimit);
        return withWhere(plain, where, layout, topN(t, where));
    }

    private static TaskletSpec withWhere(TaskletSpec plain, Predicate where, RecordLayout layout,
                                         byte[] params) {
        if (where != null) {
            where.check(layout);
        }
        return new TaskletSpec(plain.taskletId(), layout, params, plain.memoryBudget(),
                plain.stepLimit());
    }

    /** The group-aggregate of params with or without a WHERE stage (the inverse of
     *  {@link #groupAggregate}). */
    public static GroupAggregate parseGroupAggregate(byte[] params) {
        int n = GroupAggregate.PARAMS_BYTES;
        if (params.length < n) {
            return GroupAggregate.parse(params); // names the size
        }
        byte[] head = Arrays.copyOf(params, n);
        int treeLen = Short.toUnsignedInt(ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN)
                .getShort(AGG_TREE_LEN_AT));
        if (params.length != n + treeLen) {
            throw new IllegalArgumentException("group-aggregate params with a " + treeLen
                    + "-byte WHERE tree are " + (n + treeLen) + " bytes, got " + params.length);
        }
        head[AGG_TREE_LEN_AT] = 0;
        head[AGG_TREE_LEN_AT + 1] = 0;
        return GroupAggregate.parse(head);
    }

    /** The WHERE stage of group-aggregate params, null when there is none. */
    public static Predicate groupAggregateWhere(byte[] params) {
        parseGroupAggregate(params);
        return tree(params, GroupAggregate.PARAMS_BYTES, params.length);
    }

    /** The top-N of params with or without a WHERE stage (the inverse of {@link #topN}). */
    public static TopN parseTopN(byte[] params) {
        int n = topNHead(params);
        byte[] head = Arrays.copyOf(params, n);
        head[4] &= (byte) ~TOPN_WHERE;
        return TopN.parse(head);
    }

    /** The WHERE stage of top-N params, null when there is none. */
    public static Predicate topNWhere(byte[] params) {
        int n = topNHead(params);
        if ((params[4] & TOPN_WHERE) == 0) {
            return null;
        }
        return tree(params, n + 2, params.length);
    }

    private static int topNHead(byte[] params) {
        if (params.length < TopN.PARAMS_BYTES) {
            return TopN.parse(params).n(); // names the size
        }
        int n = TopN.PARAMS_BYTES + (params[5] & 0xff);
        boolean where = (params[4] & TOPN_WHERE) != 0;
        int treeLen = where && params.length >= n + 2
                ? Short.toUnsignedInt(ByteBuffer.wrap(params).order(ByteOrder.LITTLE_ENDIAN)
                        .getShort(n)) : 0;
        int want = where ? n + 2 + treeLen : n;
        if (params.length != want) {
            throw new IllegalArgumentException("top-n params are " + want + " bytes, got "
                    + params.length);
        }
        return n;
    }

    private static Predicate tree(byte[] params, int from, int to) {
        return Predicate.decode(Arrays.copyOfRange(params, from, to));
    }
}
