package org.smartssd.fs;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/** Configurations, drives and data for the smartssd:// tests. */
final class FsTestSupport {
    private FsTestSupport() {
    }

    /** A configuration that lets unconfigured device names get embedded drives. */
    static Configuration embeddedConf() {
        Configuration conf = new Configuration();
        conf.setBoolean(SmartSsdConstants.EMBEDDED_ALLOWED, true);
        return conf;
    }

    /** A new (uncached) file system instance on device {@code name}. */
    static FileSystem newFs(String name, Configuration conf) throws IOException {
        return FileSystem.newInstance(URI.create("smartssd://" + name + "/"), conf);
    }

    /**
     * A profile file like kang-smartssd with 2 channels x 2 ways, so a drive of a few MiB is
     * possible; it keeps the built-in's name, so emu: reopens the image without it.
     */
    static Path tinyProfile(Path dir) throws IOException {
        Path src = Path.of(System.getProperty("user.dir"))
                .resolve("../firmware-tasklets/emu/profiles/kang-smartssd.profile").normalize();
        String text = Files.readString(src)
                .replaceFirst("(?m)^channels = 16", "channels = 2")
                .replaceFirst("(?m)^ways = 4", "ways = 2");
        return Files.writeString(dir.resolve("tiny.profile"), text);
    }

    /** Deterministic pseudo-random bytes. */
    static byte[] data(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }
}
