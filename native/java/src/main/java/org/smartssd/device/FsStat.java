package org.smartssd.device;

import java.nio.ByteBuffer;
import java.util.List;

/** Space and object-table use of the drive's object store. */
public record FsStat(long capacityBytes, long freeBytes, long objects, long maxObjects,
                     int pageSize) {
    // FSSTAT's reply, struct ss_wire_fsstat (SS_REPLY_FSSTAT in ss_proto_replies.h)
    static final int CAPACITY_BYTES = 0;
    static final int FREE_BYTES = 8;
    static final int OBJECTS = 16;
    static final int MAX_OBJECTS = 20;
    static final int PAGE_SIZE = 24;
    static final int RESERVED = 28;

    static final List<WireField> FIELDS = List.of(
            WireField.u64("capacity_bytes", CAPACITY_BYTES),
            WireField.u64("free_bytes", FREE_BYTES),
            WireField.u32("objects", OBJECTS),
            WireField.u32("max_objects", MAX_OBJECTS),
            WireField.u32("page_size", PAGE_SIZE),
            WireField.rsv32("reserved", RESERVED));

    /** Decodes the reply's wire bytes at b's start. */
    static FsStat decode(ByteBuffer b) {
        ByteBuffer le = WireField.littleEndian(b);
        return new FsStat(le.getLong(CAPACITY_BYTES), le.getLong(FREE_BYTES),
                WireField.u32(le, OBJECTS), WireField.u32(le, MAX_OBJECTS),
                le.getInt(PAGE_SIZE));
    }
}
