package org.smartssd.device.tasklet;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Prefix-order writer and reader of {@link Predicate} trees. */
final class PredicateCodec {
    static final int AND = 0x01;
    static final int OR = 0x02;
    static final int NOT = 0x03;

    private PredicateCodec() {
    }

    static void write(Predicate p, ByteArrayOutputStream out) {
        if (p instanceof Predicate.And a) {
            group(AND, a.children(), out);
        } else if (p instanceof Predicate.Or o) {
            group(OR, o.children(), out);
        } else if (p instanceof Predicate.Not n) {
            out.write(NOT);
            write(n.child(), out);
        } else if (p instanceof Predicate.Cmp c) {
            out.write(c.op().op);
            out.write(c.field());
            long v = c.constant();
            for (int i = 0; i < 8; i++) {
                out.write((int) (v >>> (8 * i)));
            }
        } else if (p instanceof Predicate.IsNull n) {
            out.write(Predicate.IsNull.OP);
            out.write(n.field());
        } else if (p instanceof Predicate.Bytes b) {
            byte[] v = b.bytes();
            out.write(b.op().op);
            out.write(b.field());
            out.write(v.length & 0xff);
            out.write(v.length >>> 8);
            out.write(v, 0, v.length);
        }
    }

    private static void group(int op, List<Predicate> children, ByteArrayOutputStream out) {
        out.write(op);
        out.write(children.size());
        for (Predicate c : children) {
            write(c, out);
        }
    }

    /**
     * Reads one tree from {@code b} (little-endian), advancing it.
     *
     * @throws IllegalArgumentException for an unknown op or a tree cut short
     */
    static Predicate read(ByteBuffer b) {
        try {
            return node(b, 1);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("predicate tree ends inside a node");
        }
    }

    private static Predicate node(ByteBuffer b, int depth) {
        if (depth > Predicate.MAX_DEPTH) {
            throw new IllegalArgumentException("predicate tree deeper than "
                    + Predicate.MAX_DEPTH + " levels");
        }
        int op = b.get() & 0xff;
        switch (op) {
            case AND, OR -> {
                int n = b.get() & 0xff;
                List<Predicate> children = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    children.add(node(b, depth + 1));
                }
                return op == AND ? new Predicate.And(children) : new Predicate.Or(children);
            }
            case NOT -> {
                return new Predicate.Not(node(b, depth + 1));
            }
            case Predicate.IsNull.OP -> {
                return new Predicate.IsNull(b.get() & 0xff);
            }
            default -> {
                for (Predicate.Compare c : Predicate.Compare.values()) {
                    if (c.op == op) {
                        int field = b.get() & 0xff;
                        return new Predicate.Cmp(c, field, b.getLong());
                    }
                }
                for (Predicate.Match m : Predicate.Match.values()) {
                    if (m.op == op) {
                        int field = b.get() & 0xff;
                        byte[] v = new byte[Short.toUnsignedInt(b.getShort())];
                        b.get(v);
                        return new Predicate.Bytes(m, field, v);
                    }
                }
                throw new IllegalArgumentException("unknown predicate op 0x"
                        + Integer.toHexString(op));
            }
        }
    }
}
