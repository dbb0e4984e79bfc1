package org.smartssd.fs;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every {@code smartssd.*} key of a Hadoop configuration the project reads, in any module
 * (smartssd-fs, the cache, device jobs, the Spark connector), so that a misspelled key is
 * reported instead of silently ignored. {@code NAME} stands for a drive's name (one or more
 * dot-separated parts), a trailing {@code *} for the keys a job writes for itself. A new key
 * is added here as well as where it is read.
 */
public final class SmartSsdKeys {
    private static final Logger LOG = LoggerFactory.getLogger(SmartSsdKeys.class);

    public static final String PREFIX = "smartssd.";

    public static final List<String> KNOWN = List.of(
            // smartssd-fs (SmartSsdConstants)
            "smartssd.device.NAME.uri", "smartssd.device.NAME.host",
            SmartSsdConstants.EMBEDDED_ALLOWED, SmartSsdConstants.EMBEDDED_CAPACITY,
            SmartSsdConstants.EMBEDDED_PROFILE, SmartSsdConstants.EMBEDDED_TIME,
            SmartSsdConstants.EMBEDDED_CACHE_SHARE, SmartSsdConstants.EMBEDDED_DIR,
            // sscache:// (SsCacheConstants)
            "smartssd.cache.NAME.backing", "smartssd.cache.NAME.mode",
            "smartssd.cache.NAME.dirty.threshold", "smartssd.cache.NAME.full.wait.ms",
            "smartssd.cache.NAME.writeback.retry.ms", "smartssd.cache.NAME.fill.queue.bytes",
            "smartssd.cache.NAME.fill.wait.ms",
            // device jobs and the Spark connector (smartssd-mapreduce Placement, DeviceJob)
            "smartssd.job.placement", "smartssd.job.placement.host.mapper.class",
            "smartssd.job.placement.host.ns-per-byte", "smartssd.job.placement.host.ns-per-record",
            "smartssd.job.placement.link.ns-per-byte", "smartssd.job.placement.auto.drain",
            "smartssd.job.placement.calibrated.*",
            "smartssd.mapreduce.tasklet.id", "smartssd.mapreduce.tasklet.layout",
            "smartssd.mapreduce.tasklet.params", "smartssd.mapreduce.tasklet.budget",
            "smartssd.mapreduce.tasklet.steps", "smartssd.mapreduce.tasklet.timeout",
            "smartssd.mapreduce.device.mapper.class",
            "smartssd.mapreduce.device.mapper.format.class", "smartssd.mapreduce.scratch.dir",
            "smartssd.mapreduce.preflight", "smartssd.mapreduce.energy.scope",
            "smartssd.mapreduce.node.check", "smartssd.mapreduce.program.record.size",
            "smartssd.mapreduce.parquet.columns", "smartssd.mapreduce.parquet.mode",
            "smartssd.mapreduce.parquet.projection", "smartssd.mapreduce.parquet.tree",
            "smartssd.mapreduce.parquet.keys", "smartssd.mapreduce.parquet.value",
            "smartssd.mapreduce.parquet.ops", "smartssd.mapreduce.parquet.limit");

    private static final List<Pattern> PATTERNS = KNOWN.stream().map(SmartSsdKeys::pattern)
            .toList();
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private SmartSsdKeys() {
    }

    private static Pattern pattern(String known) {
        StringBuilder re = new StringBuilder();
        for (String part : known.split("\\.", -1)) {
            re.append(re.length() == 0 ? "" : "\\.").append(switch (part) {
                case "NAME" -> "[^.]+(?:\\.[^.]+)*?";
                case "*" -> ".+";
                default -> Pattern.quote(part);
            });
        }
        return Pattern.compile(re.toString());
    }

    /** Whether {@code key} is one of {@link #KNOWN}. */
    public static boolean isKnown(String key) {
        for (Pattern p : PATTERNS) {
            if (p.matcher(key).matches()) {
                return true;
            }
        }
        return false;
    }

    /** The known key nearest to {@code key} (NAME read from it where it can be), or null. */
    public static String nearest(String key) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String[] parts = key.split("\\.", -1);
        for (String known : KNOWN) {
            String[] k = known.split("\\.", -1);
            StringBuilder guess = new StringBuilder();
            for (int i = 0; i < k.length; i++) {
                guess.append(i == 0 ? "" : ".").append(k[i].equals("NAME") && i < parts.length
                        ? parts[i] : k[i]);
            }
            int d = distance(key.toLowerCase(Locale.ROOT), guess.toString()
                    .toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = guess.toString();
            }
        }
        return bestDistance <= Math.max(2, key.length() / 4) ? best : null;
    }

    /** Levenshtein distance: the fewest one-character edits from {@code a} to {@code b}. */
    public static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j], cur[j - 1]) + 1);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** What to say of an unknown key: the nearest known one, if any is near. */
    public static String unknownMessage(String key) {
        String near = nearest(key);
        return "unknown configuration key " + key + (near != null ? ": did you mean " + near
                + "?" : "") + " (the known smartssd.* keys: " + String.join(", ", KNOWN) + ")";
    }

    /**
     * Logs a warning for each unknown {@code smartssd.*} key of {@code conf} not warned about
     * before in this JVM, and returns those keys.
     */
    public static List<String> warnUnknown(Configuration conf) {
        List<String> now = new ArrayList<>();
        for (String rest : conf.getPropsWithPrefix(PREFIX).keySet()) {
            String key = PREFIX + rest;
            if (!isKnown(key) && WARNED.add(key)) {
                LOG.warn(unknownMessage(key));
                now.add(key);
            }
        }
        return now;
    }
}
