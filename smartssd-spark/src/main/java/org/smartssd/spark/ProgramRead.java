package org.smartssd.spark;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.smartssd.device.tasklet.BpfProgram;

/**
 * A read whose rows an eBPF program loaded on the drive defines (option {@value #TASKLET}):
 * the program runs over each partition's records (cut by the table's layout) and every row is
 * one fixed-width record it emitted ({@code ss_emit}), whose columns {@value #OUTPUT} gives as
 * a DDL schema of TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE and BOOLEAN columns, packed in
 * that order with no padding, in the byte order of {@value #ORDER} ({@code little}, the
 * default, what a program's own stores write; {@code big} for bytes copied from big-endian
 * records). {@value #ARGS}: up to six integers, the program's {@code ctx->arg}.
 */
record ProgramRead(String name, long[] args, StructType schema, boolean bigEndian, int width)
        implements Serializable {
    static final String TASKLET = "tasklet";
    static final String ARGS = "taskletArgs";
    static final String OUTPUT = "taskletOutput";
    static final String ORDER = "taskletOutputOrder";
    static final List<String> OPTIONS = List.of(TASKLET, ARGS, OUTPUT, ORDER);

    /** The program read the options ask for, or null when they name none. */
    static ProgramRead of(CaseInsensitiveStringMap o) {
        String name = o.get(TASKLET);
        if (name == null) {
            for (String k : List.of(ARGS, OUTPUT, ORDER)) {
                if (o.containsKey(k)) {
                    throw new IllegalArgumentException("option '" + k + "' is for a read that "
                            + "runs a program: give option '" + TASKLET + "' too");
                }
            }
            return null;
        }
        String ddl = o.get(OUTPUT);
        if (ddl == null || ddl.isBlank()) {
            throw new IllegalArgumentException("option '" + TASKLET + "' needs option '" + OUTPUT
                    + "': the DDL schema of the records program '" + name + "' emits, e.g. "
                    + "'key BIGINT, total BIGINT'");
        }
        StructType schema;
        try {
            schema = StructType.fromDDL(ddl);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("option '" + OUTPUT + "' is not a DDL schema: '"
                    + ddl + "': " + e.getMessage(), e);
        }
        if (schema.fields().length == 0) {
            throw new IllegalArgumentException("option '" + OUTPUT + "' has no column");
        }
        int width = 0;
        for (StructField f : schema.fields()) {
            width += width(f);
        }
        String order = o.getOrDefault(ORDER, "little").trim().toLowerCase(Locale.ROOT);
        if (!order.equals("little") && !order.equals("big")) {
            throw new IllegalArgumentException("option '" + ORDER + "' is 'little' or 'big', got '"
                    + order + "'");
        }
        BpfProgram.of(name); // checks the name
        return new ProgramRead(name, args(o.getOrDefault(ARGS, "")), nullable(schema),
                order.equals("big"), width);
    }

    private static long[] args(String v) {
        if (v.isBlank()) {
            return new long[0];
        }
        String[] parts = v.split(",");
        if (parts.length > 6) {
            throw new IllegalArgumentException("option '" + ARGS + "' has " + parts.length
                    + " integers: a program takes 6");
        }
        long[] a = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                a[i] = Long.parseLong(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("option '" + ARGS + "': '" + parts[i].trim()
                        + "' is not an integer", e);
            }
        }
        return a;
    }

    private static int width(StructField f) {
        DataType t = f.dataType();
        if (t.equals(DataTypes.ByteType) || t.equals(DataTypes.BooleanType)) {
            return 1;
        }
        if (t.equals(DataTypes.ShortType)) {
            return 2;
        }
        if (t.equals(DataTypes.IntegerType) || t.equals(DataTypes.FloatType)) {
            return 4;
        }
        if (t.equals(DataTypes.LongType) || t.equals(DataTypes.DoubleType)) {
            return 8;
        }
        throw new IllegalArgumentException("option '" + OUTPUT + "': column " + f.name() + " is "
                + t.sql() + "; a program's records hold TINYINT, SMALLINT, INT, BIGINT, FLOAT, "
                + "DOUBLE or BOOLEAN");
    }

    /** Every column of emitted bytes has a value: the schema says NOT NULL. */
    private static StructType nullable(StructType s) {
        StructField[] fs = s.fields().clone();
        for (int i = 0; i < fs.length; i++) {
            fs[i] = new StructField(fs[i].name(), fs[i].dataType(), false, fs[i].metadata());
        }
        return new StructType(fs);
    }

    /**
     * The run over a partition: its arguments, the largest output buffer (the program's
     * scratch, kept from record to record; a read does not return it), no tables.
     */
    BpfProgram program() {
        return new BpfProgram(name, args, BpfProgram.MAX_OUT, 0, 0, 0);
    }

    /** The rows of what one run emitted. */
    List<InternalRow> decode(byte[] emitted, String where) {
        if (emitted.length % width != 0) {
            throw new IllegalStateException("program '" + name + "' emitted " + emitted.length
                    + " bytes over " + where + ", not whole records of " + width + " bytes ("
                    + OUTPUT + ": " + schema.toDDL() + ")");
        }
        ByteBuffer b = ByteBuffer.wrap(emitted)
                .order(bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        StructField[] fs = schema.fields();
        List<InternalRow> rows = new ArrayList<>(emitted.length / width);
        while (b.hasRemaining()) {
            Object[] v = new Object[fs.length];
            for (int i = 0; i < fs.length; i++) {
                DataType t = fs[i].dataType();
                if (t.equals(DataTypes.ByteType)) {
                    v[i] = b.get();
                } else if (t.equals(DataTypes.BooleanType)) {
                    v[i] = b.get() != 0;
                } else if (t.equals(DataTypes.ShortType)) {
                    v[i] = b.getShort();
                } else if (t.equals(DataTypes.IntegerType)) {
                    v[i] = b.getInt();
                } else if (t.equals(DataTypes.FloatType)) {
                    v[i] = b.getFloat();
                } else if (t.equals(DataTypes.LongType)) {
                    v[i] = b.getLong();
                } else {
                    v[i] = b.getDouble();
                }
            }
            rows.add(new GenericInternalRow(v));
        }
        return rows;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProgramRead p && p.name.equals(name) && Arrays.equals(p.args, args)
                && p.schema.equals(schema) && p.bigEndian == bigEndian;
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(args);
    }

    @Override
    public String toString() {
        return name + "(" + Arrays.toString(args) + ") -> " + schema.toDDL()
                + (bigEndian ? " big-endian" : "");
    }
}
