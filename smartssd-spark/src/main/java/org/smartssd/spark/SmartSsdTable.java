package org.smartssd.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * One file of fixed-width records on a drive, read through its layout. Creating the table
 * (at analysis) checks that the file exists and holds whole records.
 */
public class SmartSsdTable implements SupportsRead {
    private final String path;
    private final TableLayout layout;
    private final ReadOptions options;
    private final DriveConf conf;
    private final DriveFile file;

    SmartSsdTable(String path, TableLayout layout, ReadOptions options, DriveConf conf) {
        this.path = path;
        this.layout = layout;
        this.options = options;
        this.conf = conf;
        try {
            this.file = DriveFile.open(path, layout, options, conf);
        } catch (IOException e) {
            throw new UncheckedIOException("smartssd table " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return path;
    }

    @Override
    public StructType schema() {
        return layout.schema();
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap readOptions) {
        return new SmartSsdScanBuilder(file, layout, options, conf);
    }

    TableLayout layout() {
        return layout;
    }

    List<SmartSsdPartition> partitions() {
        return file.partitions();
    }
}
