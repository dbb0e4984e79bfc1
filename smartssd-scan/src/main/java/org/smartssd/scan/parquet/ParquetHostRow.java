package org.smartssd.scan.parquet;

import java.util.Arrays;
import java.util.List;

import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.tasklet.RowFields;

/**
 * The row parquet-mr last read, its plan columns' values as the drive's parquet-scan reads
 * them (pq_scan.c col_u64): integers sign-extended, TIMESTAMP in microseconds (milliseconds
 * times 1000), FLOAT and DOUBLE as their order keys, BOOLEAN 0 or 1, BYTE_ARRAY its bytes; a
 * missing value NULL. Filled by the {@link #materializer} parquet-mr's record reader drives,
 * read by the WHERE tree ({@link RowFields}) and the outputs. One instance per reader.
 */
final class ParquetHostRow implements RowFields {
    private final List<DriveColumn> columns;
    /** Each plan column's slot in the requested schema (a column named twice reads once). */
    private final int[] slot;
    private final long[] numbers;
    private final byte[][] bytes;
    private final boolean[] present;
    private long value;

    /**
     * @param columns the plan columns
     * @param slot each plan column's field in the requested schema
     * @param slots the requested schema's fields
     */
    ParquetHostRow(List<DriveColumn> columns, int[] slot, int slots) {
        this.columns = columns;
        this.slot = slot.clone();
        this.numbers = new long[slots];
        this.bytes = new byte[slots][];
        this.present = new boolean[slots];
    }

    @Override
    public FieldType type(int f) {
        return columns.get(f).fieldType();
    }

    @Override
    public boolean number(int f) {
        int s = slot[f];
        if (!present[s]) {
            return false;
        }
        value = numbers[s];
        return true;
    }

    @Override
    public long value() {
        return value;
    }

    @Override
    public int[] bytes(int f) {
        int s = slot[f];
        return present[s] ? new int[] {0, bytes[s].length} : null;
    }

    @Override
    public byte[] array(int f) {
        return bytes[slot[f]];
    }

    /** Plan column {@code f} as {@link ParquetDriveScan#decodeRow} gives it; null: NULL. */
    Object decoded(int f) {
        int s = slot[f];
        if (!present[s]) {
            return null;
        }
        DriveColumn c = columns.get(f);
        return c.type() == DriveColumn.T_BYTE_ARRAY ? bytes[s].clone() : ParquetDriveScan.value(c, numbers[s]);
    }

    /** What parquet-mr's record reader fills this row through. */
    RecordMaterializer<ParquetHostRow> materializer() {
        Converter[] fields = new Converter[numbers.length];
        for (int f = 0; f < slot.length; f++) {
            fields[slot[f]] = converter(columns.get(f), slot[f]);
        }
        GroupConverter root = new GroupConverter() {
            @Override
            public Converter getConverter(int i) {
                return fields[i];
            }

            @Override
            public void start() {
                Arrays.fill(present, false);
            }

            @Override
            public void end() {
            }
        };
        return new RecordMaterializer<>() {
            @Override
            public ParquetHostRow getCurrentRecord() {
                return ParquetHostRow.this;
            }

            @Override
            public GroupConverter getRootConverter() {
                return root;
            }
        };
    }

    private PrimitiveConverter converter(DriveColumn c, int s) {
        return new PrimitiveConverter() {
            private void set(long v) {
                numbers[s] = v;
                present[s] = true;
            }

            @Override
            public void addBoolean(boolean v) {
                set(v ? 1 : 0);
            }

            @Override
            public void addInt(int v) {
                set(v);
            }

            @Override
            public void addLong(long v) {
                set(c.logical() == DriveColumn.L_TS_MILLIS ? v * 1000 : v);
            }

            @Override
            public void addFloat(float v) {
                set(RecordLayout.f32Key(Float.floatToRawIntBits(v)));
            }

            @Override
            public void addDouble(double v) {
                set(RecordLayout.f64Key(Double.doubleToRawLongBits(v)));
            }

            @Override
            public void addBinary(Binary v) {
                bytes[s] = v.getBytes();
                present[s] = true;
            }
        };
    }
}
