package org.smartssd.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Opens a partition's reader: the plain record read (rows, or columnar batches when the scan
 * is columnar), the partition's tasklet run, or a node's partitions drained
 * ({@link NodeDrainPartition}).
 */
final class SmartSsdReaderFactory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;

    private final ScanPlan plan;

    SmartSsdReaderFactory(ScanPlan plan) {
        this.plan = plan;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        if (partition instanceof NodeDrainPartition d) {
            return new TaskletReader(plan, d);
        }
        SmartSsdPartition p = (SmartSsdPartition) partition;
        return plan.mode() == ScanPlan.Mode.READ ? new RecordReader(plan, p)
                : new TaskletReader(plan, p);
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return plan.columnar();
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        return new ColumnarReader(plan, (SmartSsdPartition) partition);
    }
}
