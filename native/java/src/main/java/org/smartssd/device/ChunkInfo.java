package org.smartssd.device;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * A chunk or zone (CHUNK_REPORT, ZONE_REPORT): its state (code; {@link #chunkState()}),
 * wear (erases), first LBA, write pointer (an LBA) and capacity in sectors.
 */
public record ChunkInfo(long state, long wear, long slba, long wp, long capacity) {
    // struct ss_wire_chunk (SS_REPLY_CHUNK in ss_proto_replies.h)
    static final int STATE = 0;
    static final int WEAR = 4;
    static final int SLBA = 8;
    static final int WP = 16;
    static final int CAPACITY = 24;
    static final int SIZE = 32;

    static final List<WireField> FIELDS = List.of(
            WireField.u32("state", STATE),
            WireField.u32("wear", WEAR),
            WireField.u64("slba", SLBA),
            WireField.u64("wp", WP),
            WireField.u64("capacity", CAPACITY));

    static ChunkInfo decode(ByteBuffer b) {
        ByteBuffer le = WireField.littleEndian(b);
        return new ChunkInfo(WireField.u32(le, STATE), WireField.u32(le, WEAR), le.getLong(SLBA), le.getLong(WP),
                le.getLong(CAPACITY));
    }

    public ChunkState chunkState() {
        return ChunkState.of((int) state);
    }

    /** Sectors below the write pointer. */
    public long written() {
        return wp - slba;
    }
}
