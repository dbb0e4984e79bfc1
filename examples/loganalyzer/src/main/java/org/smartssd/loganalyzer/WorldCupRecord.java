package org.smartssd.loganalyzer;

import java.nio.ByteBuffer;

/**
 * One request of the WorldCup98 access log in its binary form: 20 bytes, big-endian
 * ({@value #BYTES} bytes; the trace's own format description, [WorldCup98] in
 * docs/REFERENCES.md):
 *
 * <pre>
 *  0 u32 timestamp   seconds since the epoch (UTC)
 *  4 u32 clientID    anonymised client
 *  8 u32 objectID    anonymised URL
 * 12 u32 size        response bytes; 0xffffffff when the log had none
 * 16 u8  method      {@link #GET}, HEAD, ...
 * 17 u8  status      top 2 bits the HTTP version, low 6 bits the status code index
 * 18 u8  type        file type ({@link FileType})
 * 19 u8  server      top 3 bits the region ({@link Region}), low 5 bits the server
 * </pre>
 *
 * Unsigned 32-bit fields are held in longs, bytes in ints (0..255).
 */
public record WorldCupRecord(long timestamp, long clientId, long objectId, long size,
                             int method, int status, int type, int server) {
    public static final int BYTES = 20;
    public static final int OFF_TIMESTAMP = 0;
    public static final int OFF_CLIENT = 4;
    public static final int OFF_OBJECT = 8;
    public static final int OFF_SIZE = 12;
    public static final int OFF_METHOD = 16;
    public static final int OFF_STATUS = 17;
    public static final int OFF_TYPE = 18;
    public static final int OFF_SERVER = 19;

    /** Method codes of the trace tools' definitions.h. */
    public static final int GET = 0;
    public static final int HEAD = 1;
    public static final int POST = 2;

    /** The size of a response the log gave no size for ("-"). */
    public static final long NO_SIZE = 0xffffffffL;

    public WorldCupRecord {
        u32(timestamp, "timestamp");
        u32(clientId, "clientID");
        u32(objectId, "objectID");
        u32(size, "size");
        u8(method, "method");
        u8(status, "status");
        u8(type, "type");
        u8(server, "server");
    }

    /** Builds the status byte from an HTTP version (0..3) and a status code index (0..63). */
    public static int status(int httpVersion, int codeIndex) {
        if (httpVersion < 0 || httpVersion > 3 || codeIndex < 0 || codeIndex > 63) {
            throw new IllegalArgumentException("HTTP version " + httpVersion
                    + " (0..3) or status index " + codeIndex + " (0..63) out of range");
        }
        return httpVersion << 6 | codeIndex;
    }

    /** Builds the server byte from a region (0..7) and a server number in it (0..31). */
    public static int server(int region, int serverInRegion) {
        if (region < 0 || region > 7 || serverInRegion < 0 || serverInRegion > 31) {
            throw new IllegalArgumentException("region " + region + " (0..7) or server "
                    + serverInRegion + " (0..31) out of range");
        }
        return region << 5 | serverInRegion;
    }

    /** The region: the server byte's top 3 bits. */
    public int region() {
        return server >>> 5;
    }

    public int httpVersion() {
        return status >>> 6;
    }

    public int statusIndex() {
        return status & 0x3f;
    }

    /** Decodes the 20 bytes at {@code off}. */
    public static WorldCupRecord decode(byte[] b, int off) {
        if (off < 0 || off + BYTES > b.length) {
            throw new IllegalArgumentException("a record needs " + BYTES + " bytes at offset "
                    + off + ", the buffer has " + b.length);
        }
        return new WorldCupRecord(be32(b, off), be32(b, off + 4), be32(b, off + 8),
                be32(b, off + 12), b[off + 16] & 0xff, b[off + 17] & 0xff, b[off + 18] & 0xff,
                b[off + 19] & 0xff);
    }

    /** Writes the 20 bytes at the buffer's position (big-endian whatever its order). */
    public void encode(ByteBuffer dst) {
        putBe32(dst, timestamp);
        putBe32(dst, clientId);
        putBe32(dst, objectId);
        putBe32(dst, size);
        dst.put((byte) method).put((byte) status).put((byte) type).put((byte) server);
    }

    /** The record's 20 bytes. */
    public byte[] toBytes() {
        ByteBuffer b = ByteBuffer.allocate(BYTES);
        encode(b);
        return b.array();
    }

    static long be32(byte[] b, int off) {
        return (b[off] & 0xffL) << 24 | (b[off + 1] & 0xffL) << 16 | (b[off + 2] & 0xffL) << 8
                | (b[off + 3] & 0xffL);
    }

    private static void putBe32(ByteBuffer dst, long v) {
        dst.put((byte) (v >>> 24)).put((byte) (v >>> 16)).put((byte) (v >>> 8)).put((byte) v);
    }

    private static void u32(long v, String name) {
        if (v < 0 || v > 0xffffffffL) {
            throw new IllegalArgumentException(name + " " + v + " is not an unsigned 32-bit value");
        }
    }

    private static void u8(int v, String name) {
        if (v < 0 || v > 0xff) {
            throw new IllegalArgumentException(name + " " + v + " is not an unsigned byte");
        }
    }
}
