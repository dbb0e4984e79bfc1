package org.smartssd.device;

/**
 * A chunk or zone (CHUNK_REPORT, ZONE_REPORT): its state (code; {@link #chunkState()}),
 * wear (erases), first LBA, write pointer (an LBA) and capacity in sectors.
 *
 * <p>The components are the fields of SS_REPLY_CHUNK in
 * {@code protocol/include/ss_proto_replies.h}, in its order ({@link WireDecoder}).
 */
public record ChunkInfo(long state, long wear, long slba, long wp, long capacity) {
    public ChunkState chunkState() {
        return ChunkState.of((int) state);
    }

    /** Sectors below the write pointer. */
    public long written() {
        return wp - slba;
    }
}
