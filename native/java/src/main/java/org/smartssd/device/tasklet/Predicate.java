package org.smartssd.device.tasklet;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.smartssd.device.RecordLayout;

/**
 * A filter predicate tree over typed fields, encoded in prefix order as the filter tasklet
 * reads it: AND/OR ({@code op, u8 n, children}), NOT ({@code op, child}), integer comparisons
 * ({@code op, u8 field, 8-byte constant}) and byte matches ({@code op, u8 field, u16 len,
 * bytes}) and IS NULL ({@code op, u8 field}); little-endian. Comparisons on I32/I64 and
 * the typed fields compare signed on the drive (F32/F64 by their order keys,
 * {@link org.smartssd.device.RecordLayout#f64Key}). Logic is SQL's three-valued one: a
 * comparison with a NULL field is unknown, and a record matches when the tree is true.
 */
public sealed interface Predicate {
    int MAX_NODES = 128;
    int MAX_DEPTH = 16;

    /** Integer comparisons ({@code SS_BT_P_EQ..GE}). */
    enum Compare {
        EQ(0x10), NE(0x11), LT(0x12), LE(0x13), GT(0x14), GE(0x15);

        final int op;

        Compare(int op) {
            this.op = op;
        }
    }

    /** Byte-string matches on BYTES fields ({@code SS_BT_P_BEQ..SUFFIX}). */
    enum Match {
        EQUALS(0x20), PREFIX(0x21), CONTAINS(0x22), SUFFIX(0x23);

        final int op;

        Match(int op) {
            this.op = op;
        }
    }

    /** {@code field} is NULL ({@code SS_BT_P_ISNULL}): its null flag is set, or a TEXT
     *  column is missing or (integer columns) does not parse. */
    record IsNull(int field) implements Predicate {
        static final int OP = 0x30;

        public IsNull {
            Fields.checkIndex(field, "predicate");
        }
    }

    /** All children hold. */
    record And(List<Predicate> children) implements Predicate {
        public And {
            children = checkChildren(children, "AND");
        }
    }

    /** At least one child holds. */
    record Or(List<Predicate> children) implements Predicate {
        public Or {
            children = checkChildren(children, "OR");
        }
    }

    /** The child does not hold. */
    record Not(Predicate child) implements Predicate {
        public Not {
            java.util.Objects.requireNonNull(child, "child");
        }
    }

    /** {@code field <op> constant}; the constant as the drive sees the field's value. */
    record Cmp(Compare op, int field, long constant) implements Predicate {
        public Cmp {
            java.util.Objects.requireNonNull(op, "op");
            Fields.checkIndex(field, "predicate");
        }
    }

    /** {@code field} equals, starts with or contains {@code bytes}. */
    record Bytes(Match op, int field, byte[] bytes) implements Predicate {
        public Bytes {
            java.util.Objects.requireNonNull(op, "op");
            Fields.checkIndex(field, "predicate");
            if (bytes.length > 0xffff) {
                throw new IllegalArgumentException("a byte match holds at most 65535 bytes, got "
                        + bytes.length);
            }
            bytes = bytes.clone();
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes b && b.op == op && b.field == field
                    && Arrays.equals(b.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return op.hashCode() * 31 + field * 17 + Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "Bytes[" + op + ", field " + field + ", " + bytes.length + " bytes]";
        }
    }

    static Predicate and(Predicate... children) {
        return new And(List.of(children));
    }

    static Predicate or(Predicate... children) {
        return new Or(List.of(children));
    }

    static Predicate not(Predicate child) {
        return new Not(child);
    }

    static Predicate isNull(int field) {
        return new IsNull(field);
    }

    static Predicate eq(int field, long v) {
        return new Cmp(Compare.EQ, field, v);
    }

    static Predicate ne(int field, long v) {
        return new Cmp(Compare.NE, field, v);
    }

    static Predicate lt(int field, long v) {
        return new Cmp(Compare.LT, field, v);
    }

    static Predicate le(int field, long v) {
        return new Cmp(Compare.LE, field, v);
    }

    static Predicate gt(int field, long v) {
        return new Cmp(Compare.GT, field, v);
    }

    static Predicate ge(int field, long v) {
        return new Cmp(Compare.GE, field, v);
    }

    static Predicate bytesEq(int field, byte[] v) {
        return new Bytes(Match.EQUALS, field, v);
    }

    static Predicate prefix(int field, String v) {
        return new Bytes(Match.PREFIX, field, v.getBytes(StandardCharsets.UTF_8));
    }

    static Predicate suffix(int field, String v) {
        return new Bytes(Match.SUFFIX, field, v.getBytes(StandardCharsets.UTF_8));
    }

    static Predicate contains(int field, String v) {
        return new Bytes(Match.CONTAINS, field, v.getBytes(StandardCharsets.UTF_8));
    }

    /** Nodes in the tree. */
    default int nodes() {
        if (this instanceof And a) {
            return 1 + a.children().stream().mapToInt(Predicate::nodes).sum();
        }
        if (this instanceof Or o) {
            return 1 + o.children().stream().mapToInt(Predicate::nodes).sum();
        }
        if (this instanceof Not n) {
            return 1 + n.child().nodes();
        }
        return 1;
    }

    /** Levels in the tree (a leaf is 1). */
    default int depth() {
        if (this instanceof And a) {
            return 1 + a.children().stream().mapToInt(Predicate::depth).max().orElse(0);
        }
        if (this instanceof Or o) {
            return 1 + o.children().stream().mapToInt(Predicate::depth).max().orElse(0);
        }
        if (this instanceof Not n) {
            return 1 + n.child().depth();
        }
        return 1;
    }

    /**
     * The tree {@link #encode} wrote, or null for an empty one (every row).
     *
     * @throws IllegalArgumentException an unknown op, a tree cut short or bytes left over
     */
    static Predicate decode(byte[] tree) {
        if (tree.length == 0) {
            return null;
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(tree)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        Predicate p = PredicateCodec.read(b);
        if (b.hasRemaining()) {
            throw new IllegalArgumentException("WHERE tree leaves " + b.remaining()
                    + " bytes unused");
        }
        return p;
    }

    /**
     * The tree's bytes in prefix order.
     *
     * @throws IllegalArgumentException past {@value #MAX_NODES} nodes, {@value #MAX_DEPTH}
     *                                  levels or 65535 bytes
     */
    default byte[] encode() {
        if (nodes() > MAX_NODES) {
            throw new IllegalArgumentException("a predicate has at most " + MAX_NODES
                    + " nodes, this one " + nodes());
        }
        if (depth() > MAX_DEPTH) {
            throw new IllegalArgumentException("a predicate has at most " + MAX_DEPTH
                    + " levels, this one " + depth());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PredicateCodec.write(this, out);
        if (out.size() > 0xffff) {
            throw new IllegalArgumentException("a predicate encodes to at most 65535 bytes, "
                    + "this one " + out.size());
        }
        return out.toByteArray();
    }

    /** Checks that leaves name integer or BYTES fields of {@code layout} as their op needs. */
    default void check(RecordLayout layout) {
        check(Fields.types(layout));
    }

    /**
     * Checks that leaves name integer or BYTES fields among {@code types} (field i's type,
     * as the drive reads it) as their op needs: a record layout's, or a Parquet plan's
     * columns'.
     */
    default void check(List<RecordLayout.FieldType> types) {
        if (this instanceof And a) {
            a.children().forEach(c -> c.check(types));
        } else if (this instanceof Or o) {
            o.children().forEach(c -> c.check(types));
        } else if (this instanceof Not n) {
            n.child().check(types);
        } else if (this instanceof Cmp c) {
            Fields.requireInteger(types, c.field(), "predicate");
        } else if (this instanceof Bytes b) {
            Fields.requireBytes(types, b.field(), "predicate");
        } else if (this instanceof IsNull n) {
            Fields.type(types, n.field(), "predicate");
        }
    }

    private static List<Predicate> checkChildren(List<Predicate> children, String what) {
        if (children.isEmpty() || children.size() > 255) {
            throw new IllegalArgumentException(what + " takes 1..255 children, got "
                    + children.size());
        }
        return List.copyOf(children);
    }
}
