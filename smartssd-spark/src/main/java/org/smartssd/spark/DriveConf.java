package org.smartssd.spark;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.smartssd.fs.SmartSsdFileSystem;
import org.smartssd.fs.sscache.SsCacheFileSystem;

/**
 * The Hadoop settings of the drives ({@code smartssd.*}, {@code fs.smartssd.*}, the split sizes: from
 * {@code spark.hadoop.*} and the read's options), carried to executors, where each task
 * rebuilds the Configuration that the {@code smartssd://} FileSystem reads.
 */
public record DriveConf(Map<String, String> entries) implements Serializable {
    /** Drive settings, and the split sizes that cut long extents into partitions. */
    static boolean ours(String key) {
        return key.startsWith("smartssd.") || key.startsWith("fs.smartssd.")
                || key.startsWith("mapreduce.input.fileinputformat.split.");
    }

    /** The session's Hadoop configuration, then the read's options that are drive settings. */
    static DriveConf fromSession(Map<String, String> options) {
        Map<String, String> e = new TreeMap<>();
        Configuration conf = SparkSession.active().sparkContext().hadoopConfiguration();
        for (Map.Entry<String, String> kv : conf) {
            if (ours(kv.getKey())) {
                e.put(kv.getKey(), kv.getValue());
            }
        }
        options.forEach((k, v) -> {
            if (ours(k)) {
                e.put(k, v);
            }
        });
        return new DriveConf(Map.copyOf(e));
    }

    /**
     * The Configuration of a task or of planning. It names the FileSystem class and loads
     * classes through the connector's own loader: with {@code --jars} the connector is not on
     * the class path Hadoop's service loading searches. A copy of one built per JVM and
     * settings: a new Configuration parses Hadoop's default XML resources again, which every
     * partition of every query paid (each drained partition builds one).
     */
    Configuration hadoop() {
        return new Configuration(BUILT.computeIfAbsent(entries, DriveConf::build));
    }

    private static final Map<Map<String, String>, Configuration> BUILT =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static Configuration build(Map<String, String> entries) {
        Configuration c = new Configuration();
        c.setClassLoader(DriveConf.class.getClassLoader());
        c.set("fs.smartssd.impl", SmartSsdFileSystem.class.getName());
        c.set("fs.sscache.impl", SsCacheFileSystem.class.getName());
        entries.forEach(c::set);
        return c;
    }
}
