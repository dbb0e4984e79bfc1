package org.smartssd.fs.impl;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * What the streams need from the drive: data commands on one object by id. Each method is
 * one drive command per protocol-sized piece (at most 1 MiB + 4032 bytes).
 */
public interface ObjectIo {
    /** Reads at {@code offset} into {@code dst}, advancing it; short only at the end. */
    int read(long oid, long offset, ByteBuffer dst) throws IOException;

    /**
     * Reads the ranges into {@code dst} (direct), back to back from its position, with up to
     * {@code depth} reads in the drive at once; returns each range's bytes (short only at the
     * end). This default reads them one after another.
     */
    default int[] readRanges(long oid, long[] offsets, int[] lens, ByteBuffer dst, int depth)
            throws IOException {
        int[] counts = new int[lens.length];
        for (int i = 0; i < lens.length; i++) {
            ByteBuffer part = dst.duplicate();
            part.limit(part.position() + lens[i]);
            counts[i] = Math.max(0, read(oid, offsets[i], part));
            dst.position(dst.position() + lens[i]);
        }
        return counts;
    }

    /** Writes all of {@code src}'s remaining bytes at {@code offset}, advancing it. */
    long write(long oid, long offset, ByteBuffer src) throws IOException;

    /**
     * The same with up to {@code depth} protocol-sized pieces in the drive at once; on
     * failure the object holds the pieces before the first that failed and none after.
     * This default writes them one after another.
     */
    default long write(long oid, long offset, ByteBuffer src, int depth) throws IOException {
        return write(oid, offset, src);
    }

    /** FLUSH: every completed change on the drive becomes durable. */
    void flush() throws IOException;

    /** The object's current size (one STAT). */
    long size(long oid) throws IOException;
}
