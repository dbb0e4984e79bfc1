package org.smartssd.loganalyzer.host;

import java.nio.file.Path;

import org.apache.hadoop.conf.Configuration;

/** A Hadoop configuration that runs jobs in this JVM (LocalJobRunner) with scratch in a folder. */
public final class LocalHadoop {
    private LocalHadoop() {
    }

    /** Local framework, {@code file:///} by default, every scratch folder under {@code scratch}. */
    public static Configuration conf(Path scratch) {
        Configuration c = new Configuration();
        String dir = scratch.toAbsolutePath().toString();
        c.set("mapreduce.framework.name", "local");
        c.set("fs.defaultFS", "file:///");
        c.set("hadoop.tmp.dir", dir + "/hadoop-tmp");
        c.set("mapreduce.jobtracker.staging.root.dir", dir + "/staging");
        c.set("mapreduce.cluster.local.dir", dir + "/local");
        // one map slot: Kang sends all I/O requests sequentially ([Kang 2014, §6.5.1])
        c.setInt("mapreduce.local.map.tasks.maximum", 1);
        // the client polls a finished local job after 5 s by default
        c.setInt("mapreduce.client.completion.pollinterval", 20);
        c.setInt("mapreduce.client.progressmonitor.pollinterval", 100);
        return c;
    }
}
