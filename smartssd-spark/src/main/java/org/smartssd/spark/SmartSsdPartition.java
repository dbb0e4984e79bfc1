package org.smartssd.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * A byte range of one of the table's files: the records whose first byte lies in it (the
 * drive's split rule), on the host of the file's drive, where Spark prefers to run it.
 */
public record SmartSsdPartition(int index, String path, long fileLength, long start,
                                long length, String[] hosts) implements InputPartition {
    @Override
    public String[] preferredLocations() {
        return hosts.clone();
    }

    /** Index of the first record of the range. */
    long firstRecord(int recordSize) {
        return (start + recordSize - 1) / recordSize;
    }

    /** Index past the last record of the range. */
    long endRecord(int recordSize) {
        long end = (start + length + recordSize - 1) / recordSize;
        return Math.min(end, fileLength / recordSize);
    }
}
