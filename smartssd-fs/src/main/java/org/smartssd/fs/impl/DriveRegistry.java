package org.smartssd.fs.impl;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.smartssd.device.SmartSsdDevice;

/**
 * One {@link SmartSsdDevice} per drive per JVM, shared by every file system instance that
 * uses the drive and closed when the last one lets go. An {@code emu:} image allows one
 * holder per process, so opening it twice would fail; sharing also keeps one protocol
 * session per process. Each open drive is a metrics2 source ({@link DriveClientMetrics}).
 */
public final class DriveRegistry {
    /** Opens a drive; {@link SmartSsdDevice#open(String)} outside tests. */
    @FunctionalInterface
    public interface Opener {
        SmartSsdDevice open(String uri) throws IOException;
    }

    private static final Map<String, Entry> OPEN = new HashMap<>();

    private DriveRegistry() {
    }

    private static final class Entry {
        final SmartSsdDevice device;
        final DriveClientMetrics metrics;
        int references;

        Entry(String uri, SmartSsdDevice device) {
            this.device = device;
            this.metrics = DriveClientMetrics.register(uri, device);
        }
    }

    /** A reference to a shared drive; closing it gives the reference back, once. */
    public static final class Lease implements AutoCloseable {
        private final String uri;
        private final SmartSsdDevice device;
        private final AtomicBoolean released = new AtomicBoolean();

        private Lease(String uri, SmartSsdDevice device) {
            this.uri = uri;
            this.device = device;
        }

        public SmartSsdDevice device() {
            return device;
        }

        public String uri() {
            return uri;
        }

        @Override
        public void close() {
            if (released.compareAndSet(false, true)) {
                release(uri, device);
            }
        }
    }

    /** Takes a reference to the drive at {@code uri}, opening it if this JVM has not. */
    public static Lease acquire(String uri, Opener opener) throws IOException {
        synchronized (OPEN) {
            Entry e = OPEN.get(uri);
            if (e == null || e.device.isClosed()) {
                if (e != null) {
                    e.metrics.close();
                }
                e = new Entry(uri, opener.open(uri));
                OPEN.put(uri, e);
            }
            e.references++;
            return new Lease(uri, e.device);
        }
    }

    private static void release(String uri, SmartSsdDevice device) {
        synchronized (OPEN) {
            Entry e = OPEN.get(uri);
            if (e == null || e.device != device) {
                return; // replaced after the device closed underneath
            }
            if (--e.references == 0) {
                OPEN.remove(uri);
                e.metrics.close();
                e.device.close();
            }
        }
    }

    /** References held on the drive at {@code uri} in this JVM (0 when it is not open). */
    public static int references(String uri) {
        synchronized (OPEN) {
            Entry e = OPEN.get(uri);
            return e == null ? 0 : e.references;
        }
    }
}
