package org.smartssd.device;

/** Attributes of one object. Times are nanoseconds since the epoch (host clock at write). */
public record ObjectStat(long oid, long parent, ObjectType type, long children, long size,
                         long ctimeNs, long mtimeNs, long atimeNs, long pageWrites,
                         long extentCount, String name) {
    public boolean isDirectory() {
        return type == ObjectType.DIRECTORY;
    }
}
