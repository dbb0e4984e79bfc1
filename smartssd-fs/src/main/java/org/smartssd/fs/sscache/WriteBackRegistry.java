package org.smartssd.fs.sscache;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One {@link WriteBackManager} per drive and backing root per JVM, shared by every
 * {@code sscache://} instance in write-back mode and closed (after a last write-back) when
 * the last one lets go. Its dirty table must be the only one for the drive.
 */
final class WriteBackRegistry {
    @FunctionalInterface
    interface Factory {
        Entry open() throws IOException;
    }

    /** A manager and what it holds open, released together. */
    record Entry(WriteBackManager manager, AutoCloseable resources) {
    }

    private static final class Shared {
        final Entry entry;
        int references;

        Shared(Entry entry) {
            this.entry = entry;
        }
    }

    private static final Map<String, Shared> OPEN = new HashMap<>();

    private WriteBackRegistry() {
    }

    /** A reference to a shared manager; closing it gives the reference back, once. */
    static final class Lease implements AutoCloseable {
        private final String key;
        private final WriteBackManager manager;
        private final AtomicBoolean released = new AtomicBoolean();

        private Lease(String key, WriteBackManager manager) {
            this.key = key;
            this.manager = manager;
        }

        WriteBackManager manager() {
            return manager;
        }

        @Override
        public void close() throws IOException {
            if (released.compareAndSet(false, true)) {
                release(key);
            }
        }
    }

    static Lease acquire(String key, Factory factory) throws IOException {
        synchronized (OPEN) {
            Shared s = OPEN.get(key);
            if (s == null) {
                s = new Shared(factory.open());
                OPEN.put(key, s);
            }
            s.references++;
            return new Lease(key, s.entry.manager());
        }
    }

    private static void release(String key) throws IOException {
        Entry closing;
        synchronized (OPEN) {
            Shared s = OPEN.get(key);
            if (s == null || --s.references > 0) {
                return;
            }
            OPEN.remove(key);
            closing = s.entry;
        }
        closing.manager().close();
        try {
            closing.resources().close();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }
}
