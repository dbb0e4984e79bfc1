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

    /** Writes all of {@code src}'s remaining bytes at {@code offset}, advancing it. */
    long write(long oid, long offset, ByteBuffer src) throws IOException;

    /** FLUSH: every completed change on the drive becomes durable. */
    void flush() throws IOException;

    /** The object's current size (one STAT). */
    long size(long oid) throws IOException;
}
