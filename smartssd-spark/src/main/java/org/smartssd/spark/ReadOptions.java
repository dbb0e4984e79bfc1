package org.smartssd.spark;

import java.io.Serializable;
import java.util.Locale;

import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.smartssd.scan.Placement;

/**
 * Per-read switches, named as the JDBC source names them: {@code pushDownPredicate},
 * {@code pushDownAggregate}, {@code pushDownLimit}, {@code pushDownTopN} (all true by
 * default), and {@code partialRecord}: {@code fail} (default) when the file's length is not
 * a multiple of the record size, or {@code skip} to read the whole records and ignore the tail;
 * {@code columnar}: whether a read that pushes nothing but columns gives Spark columnar
 * batches ({@link ColumnarReader}) or rows ({@link RecordReader});
 * {@code placement}: where the pushed operations run ({@link Placement}: {@code device},
 * {@code host} or {@code auto}), null when the option is not given (the session's
 * {@code spark.hadoop.smartssd.job.placement}, else the drive, decides).
 */
public record ReadOptions(boolean pushDownPredicate, boolean pushDownAggregate,
                          boolean pushDownLimit, boolean pushDownTopN, boolean skipPartialRecord,
                          boolean columnar, Placement placement)
        implements Serializable {
    static final String PLACEMENT = "placement";

    /** Chosen by measurement: benchmarks/run-spark.sh --columnar (smartssd-spark/README.md). */
    static final boolean COLUMNAR_DEFAULT = true;

    static ReadOptions of(CaseInsensitiveStringMap o) {
        String tail = o.getOrDefault("partialRecord", "fail").trim().toLowerCase(Locale.ROOT);
        if (!tail.equals("fail") && !tail.equals("skip")) {
            throw new IllegalArgumentException("option 'partialRecord' is 'fail' or 'skip', got '"
                    + tail + "'");
        }
        return new ReadOptions(bool(o, "pushDownPredicate"), bool(o, "pushDownAggregate"),
                bool(o, "pushDownLimit"), bool(o, "pushDownTopN"), tail.equals("skip"),
                bool(o, "columnar", COLUMNAR_DEFAULT), placement(o));
    }

    private static Placement placement(CaseInsensitiveStringMap o) {
        String v = o.get(PLACEMENT);
        if (v == null) {
            return null;
        }
        for (Placement p : Placement.values()) {
            if (p.cliName().equals(v.trim().toLowerCase(Locale.ROOT))) {
                return p;
            }
        }
        throw new IllegalArgumentException("option '" + PLACEMENT + "' is 'device', 'host' or "
                + "'auto', got '" + v + "'");
    }

    private static boolean bool(CaseInsensitiveStringMap o, String key) {
        return bool(o, key, true);
    }

    private static boolean bool(CaseInsensitiveStringMap o, String key, boolean dflt) {
        String v = o.getOrDefault(key, String.valueOf(dflt)).trim().toLowerCase(Locale.ROOT);
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException("option '" + key + "' is true or false, got '" + v
                    + "'");
        }
        return v.equals("true");
    }
}
