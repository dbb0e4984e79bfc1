package org.smartssd.fs.sscache;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.smartssd.fs.SmartSsdConstants;

/** Configurations, data and reads for the sscache:// tests. */
final class SsCacheTestSupport {
    private SsCacheTestSupport() {
    }

    /** An embedded drive named {@code drive} caching the folder {@code backing}. */
    static Configuration conf(String drive, Path backing, SsCacheConstants.Mode mode) {
        Configuration conf = new Configuration();
        conf.setBoolean(SmartSsdConstants.EMBEDDED_ALLOWED, true);
        conf.set(SsCacheConstants.CACHE_PREFIX + drive + SsCacheConstants.BACKING_SUFFIX,
                backing.toUri().toString());
        conf.set(SsCacheConstants.CACHE_PREFIX + drive + SsCacheConstants.MODE_SUFFIX,
                mode.key());
        return conf;
    }

    static SsCacheFileSystem open(String drive, Configuration conf) throws IOException {
        return (SsCacheFileSystem) FileSystem.newInstance(
                URI.create(SsCacheConstants.SCHEME + "://" + drive + "/"), conf);
    }

    static byte[] data(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    static byte[] read(FileSystem fs, org.apache.hadoop.fs.Path p) throws IOException {
        try (FSDataInputStream in = fs.open(p)) {
            return in.readAllBytes();
        }
    }

    static long counter(IOStatistics s, String name) {
        Long v = s.counters().get(name);
        return v == null ? 0 : v;
    }
}
