package org.smartssd.device;

/** Space and object-table use of the drive's object store. */
public record FsStat(long capacityBytes, long freeBytes, long objects, long maxObjects,
                     int pageSize) {
}
