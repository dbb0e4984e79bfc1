package org.smartssd.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.execution.datasources.parquet.ParquetToSparkSchemaConverter;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.smartssd.scan.parquet.ParquetFooter;

/**
 * Parquet files on a drive (a file, or a directory of them as Spark writes it): the schema is
 * the first file's footer's, converted as Spark's own Parquet source converts it; every file
 * must have the same.
 */
final class ParquetTable implements SupportsRead {
    private final String name;
    private final List<Path> files;
    private final StructType schema;
    private final ReadOptions read;
    private final DriveConf conf;

    private ParquetTable(String name, List<Path> files, StructType schema, ReadOptions read,
                         DriveConf conf) {
        this.name = name;
        this.files = files;
        this.schema = schema;
        this.read = read;
        this.conf = conf;
    }

    /** The table at {@code path} when it holds Parquet; null when it does not. */
    static ParquetTable open(String path, CaseInsensitiveStringMap options, StructType user) {
        DriveConf conf = DriveConf.fromSession(options);
        try {
            List<Path> files = ParquetFiles.of(path, conf.hadoop());
            if (files.isEmpty()) {
                return null;
            }
            ParquetToSparkSchemaConverter convert = new ParquetToSparkSchemaConverter(
                    SQLConf.get());
            StructType schema = null;
            for (Path f : files) {
                StructType s = convert.convert(ParquetFooter.readCached(f, conf.hadoop())
                        .schema());
                if (schema == null) {
                    schema = s;
                } else if (!schema.equals(s)) {
                    throw new IllegalArgumentException("the Parquet files of " + path
                            + " differ in schema: " + files.get(0) + " has " + schema.toDDL()
                            + ", " + f + " has " + s.toDDL());
                }
            }
            if (user != null && !user.equals(schema)) {
                throw new IllegalArgumentException("the schema of Parquet table " + path
                        + " comes from its footers (" + schema.toDDL() + "); a user schema ("
                        + user.toDDL() + ") is not taken");
            }
            return new ParquetTable(path, List.copyOf(files), schema, ReadOptions.of(options),
                    conf);
        } catch (IOException e) {
            throw new UncheckedIOException("smartssd table " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public StructType schema() {
        return schema;
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return new ParquetScanBuilder(files, schema, read, conf);
    }
}
