package org.smartssd.device;

/**
 * Attributes of one object. Times are nanoseconds since the epoch (host clock at write).
 * The components are the fields of SS_REPLY_STAT in
 * {@code protocol/include/ss_proto_replies.h}, in its order ({@link WireDecoder}).
 */
public record ObjectStat(long oid, long parent, ObjectType type, long nchildren, long size,
                         long ctimeNs, long mtimeNs, long atimeNs, long pageWrites,
                         long extentCount, String name) {
    /** Entries of a directory (0 for a file): the list's {@code nchildren}. */
    public long children() {
        return nchildren;
    }

    public boolean isDirectory() {
        return type == ObjectType.DIRECTORY;
    }

}
