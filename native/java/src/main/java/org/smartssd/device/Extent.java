package org.smartssd.device;

/** Where a run of an object's bytes lies on the drive, in 512-byte sectors. */
public record Extent(long offset, long lba, long sectors) {
}
