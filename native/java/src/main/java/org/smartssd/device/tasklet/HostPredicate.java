package org.smartssd.device.tasklet;

import java.util.Arrays;
import java.util.List;

import org.smartssd.device.RecordLayout.FieldType;

/**
 * A WHERE stage on the host, evaluated three-valued as the drive's predicate evaluation
 * does: a leaf over a field without a value is UNKNOWN, and a record passes only when the
 * whole condition is TRUE.
 */
final class HostPredicate {
    private static final int FALSE = 0;
    private static final int TRUE = 1;
    private static final int UNKNOWN = 2;

    private final Predicate where;
    private final HostFields fields;

    HostPredicate(Predicate where, HostFields fields) {
        this.where = where;
        this.fields = fields;
    }

    boolean test(byte[] b, int off, int len) {
        return eval(where, b, off, len) == TRUE;
    }

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
            return truth(fields.layout().fields().get(n.field()).type() == FieldType.BYTES
                    ? fields.bytesField(n.field(), b, off, len) == null
                    : !fields.intField(n.field(), b, off, len));
        }
        if (p instanceof Predicate.Cmp c) {
            if (!fields.intField(c.field(), b, off, len)) {
                return UNKNOWN;
            }
            int cmp = Fields.compare(fields.value(), c.constant(),
                    Fields.signed(fields.layout(), c.field()));
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
        int[] r = fields.bytesField(m.field(), b, off, len);
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
            case EQUALS -> n == k.length && Arrays.equals(b, at, at + n, k, 0, n);
            case PREFIX -> n >= k.length && Arrays.equals(b, at, at + k.length, k, 0, k.length);
            case SUFFIX -> n >= k.length
                    && Arrays.equals(b, at + n - k.length, at + n, k, 0, k.length);
            case CONTAINS -> contains(b, at, n, k);
        };
    }

    private static boolean contains(byte[] h, int at, int n, byte[] k) {
        for (int i = 0; i + k.length <= n; i++) {
            if (Arrays.equals(h, at + i, at + i + k.length, k, 0, k.length)) {
                return true;
            }
        }
        return k.length == 0;
    }
}
