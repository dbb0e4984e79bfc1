package org.smartssd.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An open-channel or zoned drive (native/PROTOCOL.md 4.8): the host places the data. Writes
 * go at a chunk's write pointer, in whole minimum write units; reads below it; a reset
 * erases a chunk and counts its wear; a chunk whose erase fails goes offline. A broken rule
 * throws a {@link SmartSsdException} whose {@link SmartSsdException#reason() reason} names
 * the rule (or {@link Reason#CHUNK_OFFLINE}) and writes nothing.
 * Thread-safe, as the device is.
 */
public final class ChunkedDrive {
    /** Addresses one vector command carries (SS_VECTOR_MAX). */
    public static final int VECTOR_MAX = 64;
    /** Bytes of a sector. */
    public static final int SECTOR = 512;
    private static final int ZONE_OPEN = 0;
    private static final int ZONE_CLOSE = 1;
    private static final int ZONE_FINISH = 2;
    private static final int ZONE_RESET = 3;

    private final DeviceSession s;
    private final ChunkGeometry geometry;

    private ChunkedDrive(DeviceSession s, ChunkGeometry geometry) {
        this.s = s;
        this.geometry = geometry;
    }

    /** The drive's chunks; reason {@link Reason#WRONG_INTERFACE} on an FTL drive. */
    static ChunkedDrive of(DeviceSession s) throws IOException {
        return new ChunkedDrive(s, geometry(s));
    }

    static ChunkGeometry geometry(DeviceSession s) throws IOException {
        return s.withScratch((h, out) -> {
            s.check(SmartSsdNative.geometry0(h, out), "geometry");
            return Replies.GEOMETRY.decode(out);
        });
    }

    public ChunkGeometry geometry() {
        return geometry;
    }

    /** Up to {@code max} chunks (zones on a zoned drive) from index {@code first}; fewer
     *  at the end, none past it. */
    public List<ChunkInfo> report(long first, int max) throws IOException {
        boolean zoned = geometry.driveInterface() == DriveInterface.ZONED;
        return s.withScratch((h, out) -> {
            int n = (int) s.check(SmartSsdNative.chunkReport0(h, zoned, first, max, out),
                    zoned ? "zone report from" : "chunk report from", first);
            List<ChunkInfo> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                list.add(Replies.CHUNK.decode(out, i * Replies.CHUNK.size()));
            }
            return list;
        });
    }

    /** Writes {@code addrs.size()} sectors (at most {@link #VECTOR_MAX}) from a direct
     *  buffer's position on, one per address. */
    public void vectorWrite(List<PhysicalAddress> addrs, ByteBuffer data) throws IOException {
        vectorIo(true, addrs, data);
    }

    /** Reads one sector per address into a direct buffer from its position on. */
    public void vectorRead(List<PhysicalAddress> addrs, ByteBuffer into) throws IOException {
        vectorIo(false, addrs, into);
    }

    private void vectorIo(boolean write, List<PhysicalAddress> addrs, ByteBuffer buf)
            throws IOException {
        int[] v = packed(addrs);
        Objects.requireNonNull(buf, "buffer");
        if (!buf.isDirect() || buf.remaining() < addrs.size() * SECTOR) {
            throw new IllegalArgumentException("a direct buffer with " + addrs.size() * SECTOR
                    + " bytes remaining is needed");
        }
        s.withHandle(h -> s.check(SmartSsdNative.vectorIo0(h, write, v, addrs.size(), buf,
                buf.position()), write ? "vector write at" : "vector read at", addrs.get(0)));
    }

    /** Erases the chunks of the addresses (sector 0 each), counting one erase of wear each. */
    public void reset(List<PhysicalAddress> chunks) throws IOException {
        int[] v = packed(chunks);
        s.withHandle(h -> s.check(SmartSsdNative.chunkReset0(h, v, chunks.size()),
                "chunk reset of", chunks.get(0)));
    }

    public void openZone(long slba) throws IOException {
        zone(ZONE_OPEN, "zone open", slba);
    }

    public void closeZone(long slba) throws IOException {
        zone(ZONE_CLOSE, "zone close", slba);
    }

    public void finishZone(long slba) throws IOException {
        zone(ZONE_FINISH, "zone finish", slba);
    }

    public void resetZone(long slba) throws IOException {
        zone(ZONE_RESET, "zone reset", slba);
    }

    /** Appends the direct buffer's remaining bytes (whole minimum write units) to the zone
     *  starting at {@code slba}. @return the LBA they went to */
    public long append(long slba, ByteBuffer data) throws IOException {
        if (!data.isDirect()) {
            throw new IllegalArgumentException("zone append needs a direct buffer");
        }
        return s.withHandle(h -> s.check(SmartSsdNative.zoneAppend0(h, slba, data,
                data.position(), data.remaining()), "zone append to", slba));
    }

    private void zone(int action, String what, long slba) throws IOException {
        s.withHandle(h -> s.check(SmartSsdNative.zoneMgmt0(h, action, slba), what, slba));
    }

    private static int[] packed(List<PhysicalAddress> addrs) {
        if (addrs.isEmpty() || addrs.size() > VECTOR_MAX) {
            throw new IllegalArgumentException(addrs.size() + " addresses: 1 to " + VECTOR_MAX
                    + " at once");
        }
        int[] v = new int[4 * addrs.size()];
        for (int i = 0; i < addrs.size(); i++) {
            PhysicalAddress a = addrs.get(i);
            v[4 * i] = a.group();
            v[4 * i + 1] = a.pu();
            v[4 * i + 2] = a.chunk();
            v[4 * i + 3] = a.sector();
        }
        return v;
    }
}
