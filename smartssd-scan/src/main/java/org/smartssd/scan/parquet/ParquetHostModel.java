package org.smartssd.scan.parquet;

import java.util.List;

import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * The host's CPU time for a Parquet query, modelled from counted work (values decoded, string
 * bytes decoded, rows aggregated, groups shuffled), never from wall clock. One copy: the Spark
 * connector's {@code placement=auto} prices its host side with it, and the Parquet benchmark
 * charges Spark's own reader (way 2) and the connector with it.
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
 * "decompresses at about 500 MB/sec or more" on one core of a Core i7). Types without a
 * figure of their own are priced as the integer of their width (an assumption): BOOLEAN as
 * TINYINT, FLOAT as INT, DOUBLE, INT96 and FIXED_LEN_BYTE_ARRAY as BIGINT.
 *
 * <p>The query's own work: an aggregate's rows at the log analyzer's per-record prices (one
 * key {@value #AGGREGATE_ONE_KEY_NS_PER_ROW}, two keys {@value #AGGREGATE_TWO_KEYS_NS_PER_ROW}
 * ns: Kang 2014 §6.5.1, derived in the log analyzer's {@code HostCostModel}, which takes them
 * from here) and {@value #PARTIAL_GROUP_NS} ns per partial group shuffled; a filter's
 * comparison and the collection of the answer are not charged (every way pays them alike).
 */
public final class ParquetHostModel {
    /** What the model prices a value by. */
    public enum Kind { TINYINT, SMALLINT, INT, BIGINT, STRING }

    /** "SQL Single BIGINT Column Scan", SQL Parquet Vectorized: DataPageV1. */
    public static final double BIGINT_NS = 18.0;
    /** "SQL Single INT Column Scan", SQL Parquet Vectorized: DataPageV1. */
    public static final double INT_NS = 7.4;
    /** "SQL Single SMALLINT Column Scan", SQL Parquet Vectorized: DataPageV1. */
    public static final double SMALLINT_NS = 8.1;
    /** "SQL Single TINYINT Column Scan", SQL Parquet Vectorized: DataPageV1. */
    public static final double TINYINT_NS = 6.7;
    /** "String with Nulls Scan (0.0%)", SQL Parquet Vectorized: DataPageV1, 116.4 / 2. */
    public static final double STRING_NS = 58.2;
    /** Snappy's decompression, 500 MB/s (Snappy's README). */
    public static final double STRING_NS_PER_BYTE = 2.0;
    /** An in-memory combine of a row on one byte key: about 16 cycles of a 3.3 GHz i5-2500. */
    public static final double AGGREGATE_ONE_KEY_NS_PER_ROW = 5;
    /** The same on two keys into a 2-D table. */
    public static final double AGGREGATE_TWO_KEYS_NS_PER_ROW = 8;
    /** A partial group through the shuffle (serialise, sort, spill, merge): ~1300 cycles. */
    public static final double PARTIAL_GROUP_NS = 400;

    private ParquetHostModel() {
    }

    /** The price of one value of {@code k}. */
    public static double nsPerValue(Kind k) {
        return switch (k) {
            case BIGINT -> BIGINT_NS;
            case INT -> INT_NS;
            case SMALLINT -> SMALLINT_NS;
            case TINYINT -> TINYINT_NS;
            case STRING -> STRING_NS;
        };
    }

    /** How a value of a Parquet column is priced. */
    public static Kind kind(PrimitiveType t) {
        switch (t.getPrimitiveTypeName()) {
            case INT64, DOUBLE, INT96, FIXED_LEN_BYTE_ARRAY:
                return Kind.BIGINT;
            case BINARY:
                return Kind.STRING;
            case BOOLEAN:
                return Kind.TINYINT;
            default:
                if (t.getLogicalTypeAnnotation()
                        instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i) {
                    return i.getBitWidth() == 8 ? Kind.TINYINT
                            : i.getBitWidth() == 16 ? Kind.SMALLINT : Kind.INT;
                }
                return Kind.INT;
        }
    }

    /**
     * Decoding {@code rows} rows of {@code columns}, the strings {@code stringBytes} long on
     * average.
     */
    public static double decodeNs(List<Kind> columns, long rows, double stringBytes) {
        double perRow = 0;
        for (Kind k : columns) {
            perRow += nsPerValue(k);
            if (k == Kind.STRING) {
                perRow += STRING_NS_PER_BYTE * stringBytes;
            }
        }
        return perRow * rows;
    }

    /** The price of a row into an aggregate of {@code keys} keys. */
    public static double aggregateNsPerRow(int keys) {
        return keys >= 2 ? AGGREGATE_TWO_KEYS_NS_PER_ROW : AGGREGATE_ONE_KEY_NS_PER_ROW;
    }

    /** The query's aggregation: {@code nsPerRow} per row into it, and its partial groups. */
    public static double aggregateNs(double nsPerRow, long rowsIn, long partialGroups) {
        return nsPerRow * rowsIn + PARTIAL_GROUP_NS * partialGroups;
    }
}
