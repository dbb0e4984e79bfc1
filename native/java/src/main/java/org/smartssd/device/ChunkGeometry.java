package org.smartssd.device;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * An open-channel or zoned drive's geometry (GEOMETRY, native/PROTOCOL.md 4.8): its
 * interface ({@code iface}, {@link #driveInterface()}), {@code groups} (channels) of {@code pus} parallel units (dies) of
 * {@code chunks} chunks (erase blocks) each; a chunk holds {@code chunkSectors} sectors of
 * {@code sectorBytes}, written in whole {@code wsMin} units ({@code wsOpt} is the drive's
 * optimal write size); chunk i starts at LBA i x {@code zoneSectors}.
 */
public record ChunkGeometry(long iface, long groups, long pus, long chunks,
                            long sectorBytes, long chunkSectors, long wsMin, long wsOpt,
                            long zoneSectors, long offlineChunks, long endurance) {
    // struct ss_wire_geometry (SS_REPLY_GEOMETRY in ss_proto_replies.h)
    static final int IFACE = 0;
    static final int GROUPS = 4;
    static final int PUS = 8;
    static final int CHUNKS = 12;
    static final int SECTOR_BYTES = 16;
    static final int CHUNK_SECTORS = 20;
    static final int WS_MIN = 24;
    static final int WS_OPT = 28;
    static final int ZONE_SECTORS = 32;
    static final int OFFLINE_CHUNKS = 40;
    static final int ENDURANCE = 44;

    static final List<WireField> FIELDS = List.of(
            WireField.u32("iface", IFACE),
            WireField.u32("groups", GROUPS),
            WireField.u32("pus", PUS),
            WireField.u32("chunks", CHUNKS),
            WireField.u32("sector_bytes", SECTOR_BYTES),
            WireField.u32("chunk_sectors", CHUNK_SECTORS),
            WireField.u32("ws_min", WS_MIN),
            WireField.u32("ws_opt", WS_OPT),
            WireField.u64("zone_sectors", ZONE_SECTORS),
            WireField.u32("offline_chunks", OFFLINE_CHUNKS),
            WireField.u32("endurance", ENDURANCE));

    static ChunkGeometry decode(ByteBuffer b) {
        ByteBuffer le = WireField.littleEndian(b);
        return new ChunkGeometry(WireField.u32(le, IFACE),
                WireField.u32(le, GROUPS), WireField.u32(le, PUS), WireField.u32(le, CHUNKS),
                WireField.u32(le, SECTOR_BYTES), WireField.u32(le, CHUNK_SECTORS),
                WireField.u32(le, WS_MIN), WireField.u32(le, WS_OPT), le.getLong(ZONE_SECTORS),
                WireField.u32(le, OFFLINE_CHUNKS), WireField.u32(le, ENDURANCE));
    }

    /** The interface the drive is formatted with. */
    public DriveInterface driveInterface() {
        return DriveInterface.of((int) iface);
    }

    /** Chunks of the whole drive. */
    public long totalChunks() {
        return groups * pus * chunks;
    }

    /** The index of chunk {@code chunk} of parallel unit {@code pu} of group {@code group}. */
    public long index(long group, long pu, long chunk) {
        return (group * pus + pu) * chunks + chunk;
    }
}
