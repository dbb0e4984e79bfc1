package org.smartssd.spark;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The one writer of a table at a time: an object {@code .NAME.smartssd-lock} beside the table,
 * made by the drive's exclusive CREATE, so every process on the drive (another Spark
 * application, through smartssd-devd) sees it at once and only one can hold it; deleted when
 * the write ends. A JVM lock would not do: appends from two applications would still
 * interleave. It holds who took it (host, process, time) for the error of a writer that gives
 * up waiting. The drive has no leases, so a lock left by a killed driver stays until deleted
 * by hand; the error names it.
 */
final class TableLock implements AutoCloseable {
    private static final long MAX_PAUSE_MS = 200;

    private final FileSystem fs;
    private final Path lock;
    private final String owner;

    private TableLock(FileSystem fs, Path lock, String owner) {
        this.fs = fs;
        this.lock = lock;
        this.owner = owner;
    }

    static Path of(Path table) {
        return new Path(table.getParent(), "." + table.getName() + ".smartssd-lock");
    }

    /**
     * Takes the lock of {@code table}, waiting up to {@code waitMs} for its holder to finish.
     *
     * @throws IOException naming the holder and the lock object when the wait runs out
     */
    static TableLock acquire(FileSystem fs, Path table, long waitMs) throws IOException {
        Path lock = of(table);
        String owner = "owner=" + ManagementFactory.getRuntimeMXBean().getName() + " on "
                + InetAddress.getLocalHost().getHostName() + ", thread "
                + Thread.currentThread().getName() + ", since " + Instant.now() + ", token "
                + UUID.randomUUID() + "\n";
        long deadline = System.nanoTime() + waitMs * 1_000_000L;
        long pause = 5;
        for (;;) {
            try (OutputStream out = fs.create(lock, false)) {
                out.write(owner.getBytes(StandardCharsets.UTF_8));
                return new TableLock(fs, lock, owner);
            } catch (FileAlreadyExistsException held) {
                if (System.nanoTime() - deadline >= 0) {
                    throw new IOException("table " + table + " is being written by another "
                            + "writer (" + holder(fs, lock) + "); waited " + waitMs + " ms for "
                            + "its lock " + lock + " (option '" + ConnectorOptions.LOCK_WAIT
                            + "'). If no writer is running, delete " + lock, held);
                }
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted waiting for the lock " + lock);
            }
            pause = Math.min(2 * pause, MAX_PAUSE_MS);
        }
    }

    private static String holder(FileSystem fs, Path lock) {
        String s;
        try {
            s = read(fs, lock).trim();
        } catch (IOException e) {
            return "holder unknown: " + e.getMessage();
        }
        return s.isEmpty() ? "holder not yet recorded" : s;
    }

    private static String read(FileSystem fs, Path lock) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (InputStream in = fs.open(lock)) {
            in.transferTo(b);
        }
        return b.toString(StandardCharsets.UTF_8);
    }

    /** Deletes the lock, unless it is no longer this writer's (deleted by hand, retaken). */
    @Override
    public void close() throws IOException {
        String held;
        try {
            held = read(fs, lock);
        } catch (FileNotFoundException gone) {
            return;
        }
        if (held.equals(owner)) {
            fs.delete(lock, false);
        }
    }
}
