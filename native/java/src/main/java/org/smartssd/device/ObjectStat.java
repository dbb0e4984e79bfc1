package org.smartssd.device;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Attributes of one object. Times are nanoseconds since the epoch (host clock at write). */
public record ObjectStat(long oid, long parent, ObjectType type, long nchildren, long size,
                         long ctimeNs, long mtimeNs, long atimeNs, long pageWrites,
                         long extentCount, String name) {
    // STAT's reply, struct ss_wire_stat (SS_REPLY_STAT in ss_proto_replies.h)
    static final int OID = 0;
    static final int PARENT = 8;
    static final int TYPE = 16;
    static final int NCHILDREN = 20;
    static final int SIZE = 24;
    static final int CTIME_NS = 32;
    static final int MTIME_NS = 40;
    static final int ATIME_NS = 48;
    static final int PAGE_WRITES = 56;
    static final int EXTENT_COUNT = 64;
    static final int NAME_LEN = 68;
    static final int RESERVED = 70;
    static final int NAME = 72;
    static final int NAME_BYTES = 256;

    static final List<WireField> FIELDS = List.of(
            WireField.u64("oid", OID),
            WireField.u64("parent", PARENT),
            WireField.u32("type", TYPE),
            WireField.u32("nchildren", NCHILDREN),
            WireField.u64("size", SIZE),
            WireField.u64("ctime_ns", CTIME_NS),
            WireField.u64("mtime_ns", MTIME_NS),
            WireField.u64("atime_ns", ATIME_NS),
            WireField.u64("page_writes", PAGE_WRITES),
            WireField.u32("extent_count", EXTENT_COUNT),
            new WireField("name_len", "len16", NAME_LEN, 2),
            new WireField("reserved", "rsv16", RESERVED, 2),
            new WireField("name", "name", NAME, NAME_BYTES));

    /** Entries of a directory (0 for a file): the list's {@code nchildren}. */
    public long children() {
        return nchildren;
    }

    public boolean isDirectory() {
        return type == ObjectType.DIRECTORY;
    }

    /** Decodes the reply's wire bytes at b's start. */
    static ObjectStat decode(ByteBuffer b) {
        ByteBuffer le = WireField.littleEndian(b);
        int nameLen = Math.min(Short.toUnsignedInt(le.getShort(NAME_LEN)), NAME_BYTES - 1);
        byte[] name = new byte[nameLen];
        le.get(NAME, name);
        return new ObjectStat(le.getLong(OID), le.getLong(PARENT),
                ObjectType.of(le.getInt(TYPE)), WireField.u32(le, NCHILDREN), le.getLong(SIZE),
                le.getLong(CTIME_NS), le.getLong(MTIME_NS), le.getLong(ATIME_NS),
                le.getLong(PAGE_WRITES), WireField.u32(le, EXTENT_COUNT),
                new String(name, StandardCharsets.UTF_8));
    }
}
