package org.smartssd.benchmarks.parquet;

import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.smartssd.loganalyzer.model.HostCostModel;

/**
 * The host's CPU time for a Parquet query, modelled from counted work (values decoded, string
 * bytes decoded, rows aggregated, groups shuffled), never from wall clock.
 *
 * <p>Per value decoded, by type: Spark's own benchmark of its vectorized Parquet reader,
 * {@code DataSourceReadBenchmark} ({@code sql/core/benchmarks/DataSourceReadBenchmark-jdk21-
 * results.txt} in Apache Spark, AMD EPYC 9V74, OpenJDK 21), "SQL Parquet Vectorized:
 * DataPageV1", Per Row (ns), of {@code SELECT sum(col)} over a snappy Parquet table of one
 * column on local files: each figure holds the file read, snappy, the decoding into column
 * vectors and the sum. Strings: "String with Nulls Scan (0.0%)", 116.4 ns per row of two
 * string columns ({@code CAST(id AS STRING)}, up to 8 B) read and measured
 * ({@code SUM(LENGTH(c2)) ... WHERE c1 IS NOT NULL AND c2 IS NOT NULL}): 58.2 ns a value;
 * the bytes of longer strings cost Snappy's decompression on top, 2.0 ns/B (Snappy's README:
 * "decompresses at about 500 MB/sec or more" on one core of a Core i7).
 *
 * <p>The query's own work: Q1 and Q2 charge the log analyzer's per-record aggregation (5 / 8
 * ns, {@link HostCostModel}) for every row into the aggregate and 400 ns per partial group
 * shuffled ({@link HostCostModel#MAP_OUTPUT_NS_PER_RECORD}); a filter's comparison and the
 * collection of the answer are not charged (both ways would pay the latter alike).
 *
 * <p>Both ways are charged the same prices: Spark's reader for the values it decodes from the
 * Parquet pages; the connector for the values of the rows the drive returns, decoded from
 * the drive's row encoding (cheaper in fact than Parquet's pages: no snappy, no levels; so
 * this is the connector's worst case).
 */
final class ParquetHostModel {
    /** "SQL Single BIGINT Column Scan", SQL Parquet Vectorized: DataPageV1. */
    static final double BIGINT_NS = 18.0;
    /** "SQL Single INT Column Scan", SQL Parquet Vectorized: DataPageV1. */
    static final double INT_NS = 7.4;
    /** "SQL Single SMALLINT Column Scan", SQL Parquet Vectorized: DataPageV1. */
    static final double SMALLINT_NS = 8.1;
    /** "SQL Single TINYINT Column Scan", SQL Parquet Vectorized: DataPageV1. */
    static final double TINYINT_NS = 6.7;
    /** "String with Nulls Scan (0.0%)", SQL Parquet Vectorized: DataPageV1, 116.4 / 2. */
    static final double STRING_NS = 58.2;
    /** Snappy's decompression, 500 MB/s (Snappy's README). */
    static final double STRING_NS_PER_BYTE = 2.0;

    private ParquetHostModel() {
    }

    /** The price of one value of {@code t}; a type the model has no figure for is refused. */
    static double nsPerValue(DataType t) {
        if (t instanceof LongType) {
            return BIGINT_NS;
        }
        if (t instanceof IntegerType) {
            return INT_NS;
        }
        if (t instanceof ShortType) {
            return SMALLINT_NS;
        }
        if (t instanceof ByteType) {
            return TINYINT_NS;
        }
        if (t instanceof StringType) {
            return STRING_NS;
        }
        throw new IllegalArgumentException("no host price for a value of type " + t.sql());
    }

    /**
     * Decoding {@code rows} rows of {@code columns}, the strings {@code stringBytes} long on
     * average.
     */
    static double decodeNs(StructType columns, long rows, double stringBytes) {
        double perRow = 0;
        for (StructField f : columns.fields()) {
            perRow += nsPerValue(f.dataType());
            if (f.dataType() instanceof StringType) {
                perRow += STRING_NS_PER_BYTE * stringBytes;
            }
        }
        return perRow * rows;
    }

    /** The query's aggregation: {@code nsPerRow} per row into it, and its partial groups. */
    static double aggregateNs(double nsPerRow, long rowsIn, long partialGroups) {
        return nsPerRow * rowsIn + HostCostModel.MAP_OUTPUT_NS_PER_RECORD * partialGroups;
    }
}
