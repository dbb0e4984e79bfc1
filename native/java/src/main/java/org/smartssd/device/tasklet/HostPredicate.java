package org.smartssd.device.tasklet;

import java.util.Arrays;
import java.util.List;

import org.smartssd.device.RecordLayout.FieldType;

/**
 * A WHERE stage on the host, evaluated three-valued as the drive's predicate evaluation
 * (tasklets/pred.c) does: a leaf over a field without a value is UNKNOWN, and a row passes
 * only when the whole condition is TRUE. Comparisons order a field as its type's
 * signedness says; byte matches compare bytes. The one host evaluator: over records
 * ({@link HostFields}) and over rows other readers decode ({@link RowFields}).
 */
public final class HostPredicate {
    private static final int FALSE = 0;
    private static final int TRUE = 1;
    private static final int UNKNOWN = 2;

    private final Predicate where;

    public HostPredicate(Predicate where) {
        this.where = java.util.Objects.requireNonNull(where, "where");
    }

    /** Whether {@code row} passes: the condition is TRUE (not FALSE, not UNKNOWN). */
    public boolean test(RowFields row) {
        return eval(where, row) == TRUE;
    }

    private static int truth(boolean b) {
        return b ? TRUE : FALSE;
    }

    private static int eval(Predicate p, RowFields row) {
        if (p instanceof Predicate.And || p instanceof Predicate.Or) {
            boolean and = p instanceof Predicate.And;
            List<Predicate> children = and ? ((Predicate.And) p).children()
                    : ((Predicate.Or) p).children();
            int res = truth(and);
            for (Predicate c : children) {
                int x = eval(c, row);
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
            int x = eval(n.child(), row);
            return x == UNKNOWN ? UNKNOWN : truth(x == FALSE);
        }
        if (p instanceof Predicate.IsNull n) {
            return truth(row.type(n.field()) == FieldType.BYTES ? row.bytes(n.field()) == null
                    : !row.number(n.field()));
        }
        if (p instanceof Predicate.Cmp c) {
            if (!row.number(c.field())) {
                return UNKNOWN;
            }
            int cmp = Fields.compare(row.value(), c.constant(), row.type(c.field()).signed());
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
        int[] r = row.bytes(m.field());
        if (r == null) {
            return UNKNOWN;
        }
        return truth(bytesMatch(m, row.array(m.field()), r));
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
