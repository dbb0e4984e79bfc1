package org.smartssd.spark;

import java.io.IOException;

import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.smartssd.spark.TableLayout.Column;

/**
 * The plain read in columnar batches: each batch of whole records that {@link RecordReader}
 * reads is decoded column by column into Spark's on-heap vectors, one batch per 1 MiB read.
 */
final class ColumnarReader implements PartitionReader<ColumnarBatch> {
    private final RecordReader records;
    private final ScanPlan plan;
    private final Column[] cols;
    private final DataType[] types;
    private final OnHeapColumnVector[] vectors;
    private final ColumnarBatch batch;

    ColumnarReader(ScanPlan plan, SmartSsdPartition part) {
        this.plan = plan;
        this.records = new RecordReader(plan, part);
        int n = plan.columns().length;
        cols = new Column[n];
        types = new DataType[n];
        vectors = new OnHeapColumnVector[n];
        int capacity = RecordReader.recordsPerBatch(plan.layout().recordSize());
        for (int i = 0; i < n; i++) {
            cols[i] = plan.layout().columns().get(plan.columns()[i]);
            types[i] = cols[i].sparkType();
            vectors[i] = new OnHeapColumnVector(capacity, types[i]);
        }
        batch = new ColumnarBatch(vectors.clone(), 0);
    }

    @Override
    public boolean next() throws IOException {
        int n = records.nextBatch();
        if (n == 0) {
            return false;
        }
        byte[] b = records.batch();
        int rs = plan.layout().recordSize();
        for (int c = 0; c < cols.length; c++) {
            OnHeapColumnVector v = vectors[c];
            v.reset();
            Column col = cols[c];
            DataType t = types[c];
            if (col.isBytes()) {
                int at = col.field().offset();
                int w = col.field().width();
                for (int i = 0; i < n; i++) {
                    int from = i * rs + at;
                    v.putByteArray(i, b, from, Values.unpaddedLength(b, from, w));
                }
            } else if (t instanceof ByteType) {
                for (int i = 0; i < n; i++) {
                    v.putByte(i, (byte) Values.wire(col, b, i * rs));
                }
            } else if (t instanceof ShortType) {
                for (int i = 0; i < n; i++) {
                    v.putShort(i, (short) Values.wire(col, b, i * rs));
                }
            } else if (t instanceof IntegerType || t instanceof DateType) {
                for (int i = 0; i < n; i++) {
                    v.putInt(i, (int) Values.wire(col, b, i * rs));
                }
            } else if (t instanceof LongType || t instanceof TimestampType) {
                for (int i = 0; i < n; i++) {
                    v.putLong(i, Values.wire(col, b, i * rs));
                }
            } else if (t instanceof FloatType) {
                int at = col.field().offset();
                for (int i = 0; i < n; i++) {
                    v.putFloat(i, Float.intBitsToFloat(java.nio.ByteBuffer.wrap(b, i * rs + at, 4)
                            .getInt()));
                }
            } else if (t instanceof DoubleType) {
                int at = col.field().offset();
                for (int i = 0; i < n; i++) {
                    v.putDouble(i, Double.longBitsToDouble(java.nio.ByteBuffer
                            .wrap(b, i * rs + at, 8).getLong()));
                }
            } else {
                int precision = ((DecimalType) t).precision();
                for (int i = 0; i < n; i++) {
                    v.putDecimal(i, (Decimal) Values.fromWire(t, Values.wire(col, b, i * rs)),
                            precision);
                }
            }
            if (col.field().nullable()) {
                for (int i = 0; i < n; i++) {
                    if (Values.isNull(col, b, i * rs)) {
                        v.putNull(i);
                    }
                }
            }
        }
        batch.setNumRows(n);
        return true;
    }

    @Override
    public ColumnarBatch get() {
        return batch;
    }

    @Override
    public CustomTaskMetric[] currentMetricsValues() {
        return records.currentMetricsValues();
    }

    @Override
    public void close() throws IOException {
        records.close();
        batch.close();
    }
}
