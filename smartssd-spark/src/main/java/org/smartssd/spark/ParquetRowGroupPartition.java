package org.smartssd.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One row group of one Parquet file: read in the drive ({@code hostReason} null) or on the
 * host, for that reason. {@code start} and {@code length} are its bytes in the file.
 */
record ParquetRowGroupPartition(String file, int rowGroup, long rows, long start, long length,
                                String hostReason) implements InputPartition {
}
