package org.smartssd.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One row group of one Parquet file, read in the drive ({@code hostReason} null), or
 * {@code rowGroups} consecutive row groups from {@code rowGroup} read on the host, for that
 * reason, by one reader: the footer once, each chunk once. {@code start} and {@code length}
 * are their bytes in the file.
 */
record ParquetRowGroupPartition(String file, int rowGroup, int rowGroups, long rows, long start,
                                long length, String hostReason) implements InputPartition {
}
