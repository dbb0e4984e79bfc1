package org.smartssd.device;

/**
 * An open-channel or zoned drive's geometry (GEOMETRY, native/PROTOCOL.md 4.8): its
 * interface ({@code iface}, {@link #driveInterface()}), {@code groups} (channels) of {@code pus} parallel units (dies) of
 * {@code chunks} chunks (erase blocks) each; a chunk holds {@code chunkSectors} sectors of
 * {@code sectorBytes}, written in whole {@code wsMin} units ({@code wsOpt} is the drive's
 * optimal write size); chunk i starts at LBA i x {@code zoneSectors}.
 *
 * <p>The components are the fields of SS_REPLY_GEOMETRY in
 * {@code protocol/include/ss_proto_replies.h}, in its order ({@link WireDecoder}).
 */
public record ChunkGeometry(long iface, long groups, long pus, long chunks,
                            long sectorBytes, long chunkSectors, long wsMin, long wsOpt,
                            long zoneSectors, long offlineChunks, long endurance) {
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
