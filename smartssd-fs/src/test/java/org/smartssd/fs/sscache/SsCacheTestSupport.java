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

    /**
     * A profile file like kang-smartssd with 2 channels x 2 ways: a 128 MiB drive has room
     * for a cache part of 25 % (a small cache that fills quickly); it keeps the built-in's
     * name, so emu: reopens the image without it.
     */
    static Path tinyProfile(Path dir) throws IOException {
        Path src = Path.of(System.getProperty("user.dir"))
                .resolve("../firmware-tasklets/emu/profiles/kang-smartssd.profile").normalize();
        String text = java.nio.file.Files.readString(src)
                .replaceFirst("(?m)^channels = 16", "channels = 2")
                .replaceFirst("(?m)^ways = 4", "ways = 2");
        return java.nio.file.Files.writeString(dir.resolve("tiny.profile"), text);
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
