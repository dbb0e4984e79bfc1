package org.smartssd.scan;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;

/** Where a scan's tasklet runs put their output on the drive, and how long one may take. */
public final class ScanConf {
    /** The drive folder for tasklet output objects. */
    public static final String SCRATCH_DIR = "smartssd.mapreduce.scratch.dir";
    public static final String SCRATCH_DIR_DEFAULT = "/.smartssd-mapreduce";
    /** Longest a tasklet run may take (a time duration, default 1h). */
    public static final String TASKLET_TIMEOUT = "smartssd.mapreduce.tasklet.timeout";

    private ScanConf() {
    }

    public static String scratchDir(Configuration conf) {
        String d = conf.getTrimmed(SCRATCH_DIR, SCRATCH_DIR_DEFAULT);
        return d.endsWith("/") && d.length() > 1 ? d.substring(0, d.length() - 1) : d;
    }

    public static Duration taskletTimeout(Configuration conf) {
        return Duration.ofMillis(conf.getTimeDuration(TASKLET_TIMEOUT,
                TimeUnit.HOURS.toMillis(1), TimeUnit.MILLISECONDS));
    }
}
