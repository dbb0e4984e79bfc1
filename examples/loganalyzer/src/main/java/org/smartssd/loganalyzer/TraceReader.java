package org.smartssd.loganalyzer;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads a WorldCup98 trace: the binary files the trace ships as ({@code wc_day6_1.gz}, gzip)
 * or their decompressed form ({@code wc_day6_1}), and the padded files the generator writes.
 * Gzip is recognised by its magic bytes, not the file name. Each entry is {@code entrySize}
 * bytes: the 20-byte record, then padding that is skipped.
 */
public final class TraceReader implements Closeable {
    private static final int GZIP_MAGIC_0 = 0x1f;
    private static final int GZIP_MAGIC_1 = 0x8b;

    private final InputStream in;
    private final int entrySize;
    private final String name;
    private final byte[] entry;
    private long entries;

    /**
     * @param in        the entries (already decompressed)
     * @param entrySize bytes per entry, at least 20
     * @param name      what error messages call the input
     */
    public TraceReader(InputStream in, int entrySize, String name) {
        checkEntrySize(entrySize);
        this.in = in;
        this.entrySize = entrySize;
        this.name = name;
        this.entry = new byte[entrySize];
    }

    /** Opens a trace file, raw or gzip. */
    public static TraceReader open(Path file, int entrySize) throws IOException {
        checkEntrySize(entrySize);
        return new TraceReader(openData(file), entrySize, file.toString());
    }

    /** The file's bytes, decompressed when it is gzip. */
    public static InputStream openData(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString(), null, "no such trace file");
        }
        if (Files.isDirectory(file)) {
            throw new IOException(file + ": is a directory, not a trace file");
        }
        BufferedInputStream b = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        b.mark(2);
        int m0 = b.read();
        int m1 = b.read();
        b.reset();
        if (m0 == GZIP_MAGIC_0 && m1 == GZIP_MAGIC_1) {
            try {
                return new BufferedInputStream(new GZIPInputStream(b, 1 << 16), 1 << 16);
            } catch (ZipException e) {
                b.close();
                throw new IOException(file + ": gzip header is corrupt: " + e.getMessage(), e);
            }
        }
        return b;
    }

    /** True when the file starts with the gzip magic bytes. */
    public static boolean isGzip(Path file) throws IOException {
        try (InputStream s = Files.newInputStream(file)) {
            return s.read() == GZIP_MAGIC_0 && s.read() == GZIP_MAGIC_1;
        }
    }

    public static void checkEntrySize(int entrySize) {
        if (entrySize < WorldCupRecord.BYTES) {
            throw new IllegalArgumentException("entry size " + entrySize + " is smaller than a "
                    + WorldCupRecord.BYTES + "-byte WorldCup98 record");
        }
    }

    public int entrySize() {
        return entrySize;
    }

    /** Entries read so far. */
    public long entries() {
        return entries;
    }

    /**
     * Reads the next whole entry into {@code dst} (at least entrySize bytes).
     *
     * @return false at the end of the trace
     * @throws IOException naming the input when it ends inside an entry or is corrupt
     */
    public boolean next(byte[] dst) throws IOException {
        int got = 0;
        while (got < entrySize) {
            int n;
            try {
                n = in.read(dst, got, entrySize - got);
            } catch (EOFException | ZipException e) {
                throw new IOException(name + ": compressed data is corrupt or truncated after "
                        + entries + " entries: " + e.getMessage(), e);
            }
            if (n < 0) {
                if (got == 0) {
                    return false;
                }
                throw new IOException(name + ": ends inside an entry: " + got + " stray bytes "
                        + "after " + entries + " whole " + entrySize + "-byte entries (truncated "
                        + "file, or the wrong entry size)");
            }
            got += n;
        }
        entries++;
        return true;
    }

    /** The next record, or null at the end of the trace. */
    public WorldCupRecord next() throws IOException {
        return next(entry) ? WorldCupRecord.decode(entry, 0) : null;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
