package org.smartssd.device;

/** One entry of a directory listing. */
public record DirEntry(long oid, ObjectType type, String name) {
}
