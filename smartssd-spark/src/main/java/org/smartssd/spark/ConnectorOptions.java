package org.smartssd.spark;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.smartssd.fs.SmartSsdKeys;

/**
 * The options of the {@code smartssd} source, reads and writes alike, and the check that
 * refuses any other, naming the nearest known one: a misspelled option must not be ignored
 * (nor fail later with an unrelated error). Besides these, an option may be a Hadoop setting
 * of the drives: a known {@code smartssd.*} key ({@link SmartSsdKeys}), {@code fs.smartssd.*}
 * or a split size ({@link DriveConf#ours}).
 */
final class ConnectorOptions {
    /** How long a write waits for another writer of the table ({@link TableLock}), in ms. */
    static final String LOCK_WAIT = "lockWaitMillis";
    static final long LOCK_WAIT_DEFAULT = 10 * 60 * 1000L;

    /** Every option, spelled as the README spells it ({@code path(s)}: Spark's load/save). */
    static final List<String> KNOWN = List.of("path", "paths", "layout", "recordSize", "sep",
            "lineSep", "maxLineLength", "partialRecord", "pushDownPredicate",
            "pushDownAggregate", "pushDownLimit", "pushDownTopN", "columnar",
            ReadOptions.PLACEMENT, LOCK_WAIT, ProgramRead.TASKLET, ProgramRead.ARGS,
            ProgramRead.OUTPUT, ProgramRead.ORDER);

    private ConnectorOptions() {
    }

    /** Table properties Spark's catalog adds of its own ({@code TableCatalog.PROP_*}). */
    private static final List<String> CATALOG_PROPERTIES = List.of(TableCatalog.PROP_LOCATION,
            TableCatalog.PROP_IS_MANAGED_LOCATION, TableCatalog.PROP_EXTERNAL,
            TableCatalog.PROP_TABLE_TYPE, TableCatalog.PROP_COMMENT, TableCatalog.PROP_COLLATION,
            TableCatalog.PROP_PROVIDER, TableCatalog.PROP_OWNER);

    /**
     * Checks the options of a read or a write. A table of Spark's catalog ({@code CREATE TABLE
     * ... USING smartssd OPTIONS (...)}) comes with its table properties, which hold each
     * option twice, plain and as {@code option.KEY}, beside the catalog's own properties and
     * the user's TBLPROPERTIES: there only the {@code option.} keys are options.
     *
     * @throws IllegalArgumentException at the first option not known
     */
    static void check(Map<String, String> options) {
        boolean catalog = options.keySet().stream()
                .anyMatch(k -> k.startsWith(TableCatalog.OPTION_PREFIX));
        for (String key : options.keySet()) {
            if (CATALOG_PROPERTIES.contains(key)) {
                continue;
            }
            if (catalog && !key.startsWith(TableCatalog.OPTION_PREFIX)) {
                continue;
            }
            String option = catalog ? key.substring(TableCatalog.OPTION_PREFIX.length()) : key;
            if (!known(option)) {
                throw new IllegalArgumentException(unknown(option));
            }
        }
    }

    private static boolean known(String key) {
        for (String k : KNOWN) {
            if (k.equalsIgnoreCase(key)) {
                return true;
            }
        }
        if (key.startsWith(SmartSsdKeys.PREFIX)) {
            return SmartSsdKeys.isKnown(key);
        }
        return DriveConf.ours(key);
    }

    private static String unknown(String key) {
        if (key.startsWith(SmartSsdKeys.PREFIX)) {
            return "option " + SmartSsdKeys.unknownMessage(key);
        }
        String near = null;
        int best = Integer.MAX_VALUE;
        for (String k : KNOWN) {
            int d = SmartSsdKeys.distance(key.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
            if (d < best) {
                best = d;
                near = k;
            }
        }
        boolean close = best <= Math.max(2, key.length() / 3);
        return "unknown option '" + key + "' of the smartssd source" + (close ? ": did you mean '"
                + near + "'?" : "") + " Known options: " + String.join(", ", KNOWN)
                + "; and Hadoop settings of the drives (smartssd.*, fs.smartssd.*, "
                + "mapreduce.input.fileinputformat.split.*)";
    }

    /** The {@value #LOCK_WAIT} option, or its default. */
    static long lockWaitMillis(Map<String, String> options) {
        String v = new org.apache.spark.sql.util.CaseInsensitiveStringMap(options).get(LOCK_WAIT);
        if (v == null) {
            return LOCK_WAIT_DEFAULT;
        }
        try {
            long ms = Long.parseLong(v.trim());
            if (ms >= 0) {
                return ms;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IllegalArgumentException("option '" + LOCK_WAIT + "' is a number of "
                + "milliseconds (0 or more), got '" + v + "'");
    }
}
