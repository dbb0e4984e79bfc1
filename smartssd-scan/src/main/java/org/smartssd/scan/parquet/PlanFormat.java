package org.smartssd.scan.parquet;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The parquet-scan tasklet's params as builtin_tasklets.h lays them out: the structs
 * {@code ss_bt_pq_params}, {@code ss_bt_pq_column}, {@code ss_bt_pq_rowgroup} and
 * {@code ss_bt_pq_chunk}, field by field, little-endian. The one copy of that field list on
 * the Java side; {@code PlanFormatTest} reads the C header and checks it is the same.
 */
public enum PlanFormat {
    PARAMS("ss_bt_pq_params", List.of(f("ncols", 1), f("mode", 1), f("nproj", 1),
            f("nkeys", 1), f("nrg", 2), f("tree_len", 2), f("limit", 4), f("key1", 1),
            f("key2", 1), f("value", 1), f("ops", 1), f("flags", 1), f("reserved", 7))),
    COLUMN("ss_bt_pq_column", List.of(f("type", 1), f("logical", 1), f("scale", 1),
            f("max_def_level", 1), f("encodings", 2), f("reserved", 2))),
    ROWGROUP("ss_bt_pq_rowgroup", List.of(f("rows", 4), f("reserved", 4))),
    CHUNK("ss_bt_pq_chunk", List.of(f("offset", 8), f("dict_offset", 8), f("length", 4),
            f("uncompressed", 4), f("values", 4), f("codec", 1), f("reserved", 3)));

    /** A field: its name in the C struct and its size in bytes. */
    public record Field(String name, int size) {
    }

    private final String struct;
    private final List<Field> fields;
    private final int bytes;

    PlanFormat(String struct, List<Field> fields) {
        this.struct = struct;
        this.fields = fields;
        this.bytes = fields.stream().mapToInt(Field::size).sum();
    }

    private static Field f(String name, int size) {
        return new Field(name, size);
    }

    /** The C struct's name. */
    public String struct() {
        return struct;
    }

    public List<Field> fields() {
        return fields;
    }

    /** The struct's size. */
    public int bytes() {
        return bytes;
    }

    /**
     * Writes one struct: {@code values} are the fields in order, reserved fields left out
     * (written as zeros).
     *
     * @throws IllegalArgumentException a value that does not fit its field
     */
    void put(ByteBuffer out, long... values) {
        int v = 0;
        for (Field fd : fields) {
            if (fd.name().equals("reserved")) {
                out.put(new byte[fd.size()]);
                continue;
            }
            long x = values[v++];
            if (fd.size() < 8 && (x < 0 || x >>> (8 * fd.size()) != 0)) {
                throw new IllegalArgumentException(struct + "." + fd.name() + " = " + x
                        + " does not fit " + fd.size() + " bytes");
            }
            for (int i = 0; i < fd.size(); i++) {
                out.put((byte) (x >>> (8 * i)));
            }
        }
        if (v != values.length) {
            throw new IllegalArgumentException(struct + " takes " + v + " values, got "
                    + values.length);
        }
    }
}
