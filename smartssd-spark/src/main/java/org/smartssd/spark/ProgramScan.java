package org.smartssd.spark;

import java.util.List;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;

/**
 * A scan whose rows a loaded eBPF program defines ({@link ProgramRead}): one run of the
 * program per partition (the table's partitions: its files' extents), its emitted records as
 * rows. Nothing is pushed: Spark filters, aggregates and limits the program's rows itself.
 */
final class ProgramScan implements ScanBuilder, Scan, Batch {
    private final ProgramRead read;
    private final TableLayout layout;
    private final DriveConf conf;
    private final DriveFiles files;

    ProgramScan(ProgramRead read, TableLayout layout, DriveConf conf, DriveFiles files) {
        this.read = read;
        this.layout = layout;
        this.conf = conf;
        this.files = files;
    }

    @Override
    public Scan build() {
        return this;
    }

    @Override
    public StructType readSchema() {
        return read.schema();
    }

    @Override
    public String description() {
        return "SmartSsdScan drives: " + files.drives() + ", paths: " + files.paths()
                + ", layout: " + layout + ", program: " + read + ", partitions: "
                + files.partitions().size() + ", ReadSchema: " + read.schema().catalogString();
    }

    @Override
    public String toString() {
        return description();
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        List<SmartSsdPartition> parts = files.partitions();
        return parts.toArray(new InputPartition[0]);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new Factory(read, layout, conf);
    }

    private record Factory(ProgramRead read, TableLayout layout, DriveConf conf)
            implements PartitionReaderFactory {
        @Override
        public PartitionReader<InternalRow> createReader(InputPartition partition) {
            return new ProgramReader(read, layout, conf, (SmartSsdPartition) partition);
        }
    }
}
