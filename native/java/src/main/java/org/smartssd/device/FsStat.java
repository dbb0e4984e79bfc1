package org.smartssd.device;

/**
 * Space and object-table use of the drive's object store.
 * The components are the fields of SS_REPLY_FSSTAT in
 * {@code protocol/include/ss_proto_replies.h}, in its order ({@link WireDecoder}).
 */
public record FsStat(long capacityBytes, long freeBytes, long objects, long maxObjects,
                     int pageSize) {
}
