package org.smartssd.spark;

import java.util.Arrays;
import java.util.Objects;

import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.sources.StringContains;
import org.apache.spark.sql.sources.StringEndsWith;
import org.apache.spark.sql.sources.StringStartsWith;

/**
 * Which of Spark's filters the drive's Parquet scan takes, as smartssd-spark/README.md
 * "Parquet" states it, for columns the drive decodes: comparisons of numbers, dates,
 * timestamps, decimals and booleans; IN (without NULL, up to 255 values); IS [NOT] NULL;
 * AND, OR, NOT of such; string equality, prefix, suffix and substring. Not a string ordering,
 * nor {@code <=>}, nor anything else.
 */
final class PushRule {
    private PushRule() {
    }

    static boolean holds(Filter f) {
        if (f instanceof And a) {
            return holds(a.left()) && holds(a.right());
        }
        if (f instanceof Or o) {
            return holds(o.left()) && holds(o.right());
        }
        if (f instanceof Not n) {
            return holds(n.child());
        }
        if (f instanceof IsNull || f instanceof IsNotNull || f instanceof StringStartsWith
                || f instanceof StringEndsWith || f instanceof StringContains) {
            return true;
        }
        if (f instanceof EqualTo e) {
            return e.value() != null;
        }
        if (f instanceof In in) {
            return in.values().length > 0 && in.values().length <= 255
                    && Arrays.stream(in.values()).allMatch(Objects::nonNull);
        }
        Object v;
        if (f instanceof GreaterThan g) {
            v = g.value();
        } else if (f instanceof GreaterThanOrEqual g) {
            v = g.value();
        } else if (f instanceof LessThan l) {
            v = l.value();
        } else if (f instanceof LessThanOrEqual l) {
            v = l.value();
        } else {
            return false;
        }
        return v != null && !(v instanceof String);
    }
}
