package org.smartssd.fs.impl;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.SmartSsdConstants;

/**
 * Which drive a device name (the URI authority) means: {@code smartssd.device.NAME.uri}, or,
 * when {@code smartssd.device.embedded.allowed} is true and the name is not configured, an
 * embedded emulated drive formatted in a temp folder on first use and removed when the JVM
 * exits. The same name gets the same embedded drive for the life of the JVM.
 */
public final class DriveResolver {
    /** The drive behind a device name. */
    public record Resolved(String name, String uri, String host, boolean embedded) {
    }

    private static final Map<String, Path> EMBEDDED = new HashMap<>();

    private DriveResolver() {
    }

    public static Resolved resolve(String name, Configuration conf) throws IOException {
        return resolve(name, conf, 0);
    }

    /**
     * As {@link #resolve(String, Configuration)}; an embedded drive formatted here gives
     * {@code defaultCacheShare} % of its flash to the solid-state cache unless
     * {@code smartssd.device.embedded.cache.share} says otherwise
     * ({@link SmartSsdDevice#CACHE_SHARE_DEFAULT}: the share {@code smartssd format} gives).
     */
    public static Resolved resolve(String name, Configuration conf, int defaultCacheShare)
            throws IOException {
        String prefix = SmartSsdConstants.DEVICE_PREFIX + name;
        String host = conf.getTrimmed(prefix + SmartSsdConstants.DEVICE_HOST_SUFFIX);
        if (host == null || host.isEmpty()) {
            host = localHostName();
        }
        String uri = conf.getTrimmed(prefix + SmartSsdConstants.DEVICE_URI_SUFFIX);
        if (uri != null && !uri.isEmpty()) {
            if (!(uri.startsWith("emu:") || uri.startsWith("unix:") || uri.startsWith("sg:"))) {
                throw new IOException(prefix + SmartSsdConstants.DEVICE_URI_SUFFIX + " = '" + uri
                        + "' is not a drive URI: use emu:/path/drive.img, unix:/path/dev.sock "
                        + "or sg:/dev/sdX");
            }
            return new Resolved(name, uri, host, false);
        }
        if (!conf.getBoolean(SmartSsdConstants.EMBEDDED_ALLOWED, false)) {
            throw new IOException("smartssd://" + name + "/: no drive is configured for device '"
                    + name + "'. Set " + prefix + SmartSsdConstants.DEVICE_URI_SUFFIX
                    + " to the drive: emu:/path/drive.img (an emulated drive image, made with "
                    + "'smartssd format emu:/path/drive.img'), unix:/path/dev.sock (a drive "
                    + "served by smartssd-devd, needed when several processes share it) or "
                    + "sg:/dev/sdX (a real drive); and " + prefix
                    + SmartSsdConstants.DEVICE_HOST_SUFFIX + " to the host that holds it "
                    + "(default: this host). For tests and demos, "
                    + SmartSsdConstants.EMBEDDED_ALLOWED + "=true gives every unconfigured "
                    + "name a throw-away emulated drive in a temp folder.");
        }
        String time = conf.getTrimmed(SmartSsdConstants.EMBEDDED_TIME, "virtual")
                .toLowerCase(Locale.ROOT);
        if (!time.equals("virtual") && !time.equals("realtime")) {
            throw new IllegalArgumentException(SmartSsdConstants.EMBEDDED_TIME
                    + " must be virtual or realtime, got '" + time + "'");
        }
        Path image = embeddedImage(name, conf,
                conf.getInt(SmartSsdConstants.EMBEDDED_CACHE_SHARE, defaultCacheShare));
        String u = "emu:" + image + (time.equals("realtime") ? "?time=realtime" : "");
        return new Resolved(name, u, host, true);
    }

    private static Path embeddedImage(String name, Configuration conf, int cacheShare)
            throws IOException {
        synchronized (EMBEDDED) {
            Path image = EMBEDDED.get(name);
            if (image != null) {
                return image;
            }
            String parent = conf.getTrimmed(SmartSsdConstants.EMBEDDED_DIR, "");
            if (parent.isEmpty()) {
                parent = System.getProperty("java.io.tmpdir");
            }
            Files.createDirectories(Path.of(parent));
            Path dir = Files.createTempDirectory(Path.of(parent), "smartssd-" + name + "-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir),
                    "smartssd-embedded-cleanup-" + name));
            image = dir.resolve(name + ".img");
            long capacity = conf.getLongBytes(SmartSsdConstants.EMBEDDED_CAPACITY,
                    cacheShare == 0 ? SmartSsdConstants.EMBEDDED_CAPACITY_DEFAULT
                            : SmartSsdConstants.EMBEDDED_CACHE_CAPACITY_DEFAULT);
            String profile = conf.getTrimmed(SmartSsdConstants.EMBEDDED_PROFILE);
            SmartSsdDevice.formatEmulated(image, profile == null || profile.isEmpty() ? null
                    : profile, capacity, 0, cacheShare);
            EMBEDDED.put(name, image);
            return image;
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // the JVM is exiting; a temp folder left behind is all that can happen
        }
    }

    static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
