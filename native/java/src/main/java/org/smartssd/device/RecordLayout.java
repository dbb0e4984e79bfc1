package org.smartssd.device;

import java.util.ArrayList;
import java.util.List;

/**
 * How a tasklet sees records: fixed-width binary records with big-endian typed fields at
 * offsets (WorldCup98 is one), or delimited text lines whose fields are columns. Same meaning
 * as {@code struct ss_layout} in smartssd/tasklet.h; the drive checks it at create time.
 */
public final class RecordLayout {
    public static final int MAX_FIELDS = 16;

    /** {@code enum ss_layout_kind}. */
    public enum Kind {
        FIXED(1), TEXT(2);

        final int code;

        Kind(int code) {
            this.code = code;
        }
    }

    /** {@code enum ss_field_type}. */
    public enum FieldType {
        U8(1), U16(2), U32(3), U64(4), I32(5), I64(6), BYTES(7),
        /** IEEE binary32/64; the drive reads them as their SQL order key ({@link #f64Key}). */
        F32(8), F64(9),
        /** Days since 1970-01-01, signed 32-bit. */
        DATE(10),
        /** Microseconds since 1970-01-01T00:00Z, signed 64-bit. */
        TIMESTAMP(11),
        /** The unscaled value, signed 64-bit; the field's {@code width} holds the scale. */
        DECIMAL(12);

        final int code;

        FieldType(int code) {
            this.code = code;
        }

        /** Bits of a numeric type's raw value; 0 for BYTES. */
        public int bits() {
            return switch (this) {
                case U8 -> 8;
                case U16 -> 16;
                case U32, I32, F32, DATE -> 32;
                case U64, I64, F64, TIMESTAMP, DECIMAL -> 64;
                case BYTES -> 0;
            };
        }

        /** Whether the drive reads the field as a signed 64-bit value. */
        public boolean signed() {
            return this == I32 || this == I64 || typed();
        }

        /** F32, F64, DATE, TIMESTAMP and DECIMAL: FIXED layouts only, no bit fields. */
        public boolean typed() {
            return code > BYTES.code;
        }
    }

    /**
     * The drive's value of a double's bits ({@code smartssd/tasklet.h} ss_f64_key): a signed
     * key in Spark's order, -0.0 equal to 0.0, every NaN equal and above +Infinity.
     */
    public static long f64Key(long bits) {
        if ((bits & Long.MAX_VALUE) > 0x7ff0000000000000L) {
            return 0x7ff8000000000000L;
        }
        if (bits == Long.MIN_VALUE) {
            return 0;
        }
        return bits < 0 ? bits ^ Long.MAX_VALUE : bits;
    }

    /** ss_f32_key: {@link #f64Key}'s order for a float's bits, sign-extended. */
    public static long f32Key(int bits) {
        if ((bits & Integer.MAX_VALUE) > 0x7f800000) {
            bits = 0x7fc00000;
        } else if (bits == Integer.MIN_VALUE) {
            bits = 0;
        } else if (bits < 0) {
            bits ^= Integer.MAX_VALUE;
        }
        return bits;
    }

    /** The double whose {@link #f64Key} is {@code key} (NaN and 0.0 for the merged ones). */
    public static double fromF64Key(long key) {
        return Double.longBitsToDouble(key < 0 ? key ^ Long.MAX_VALUE : key);
    }

    /** The float whose {@link #f32Key} is {@code key}. */
    public static float fromF32Key(long key) {
        int k = (int) key;
        return Float.intBitsToFloat(k < 0 ? k ^ Integer.MAX_VALUE : k);
    }

    /**
     * One field. For FIXED layouts {@code offset} is the byte offset in the record, for TEXT
     * the column index. Integer fields read as {@code (raw >> shift) & mask(bits)} when
     * {@code bits != 0}; BYTES fields of FIXED layouts are {@code width} bytes, DECIMAL
     * fields have their scale in {@code width}. {@code nullBit} k + 1 (FIXED only) makes the
     * field NULL where bit k of the record is set (byte k / 8, mask 0x80 >> k % 8); 0: never.
     */
    public record Field(int offset, FieldType type, int width, int shift, int bits, int nullBit) {
        public Field {
            if (offset < 0 || offset > 0xffff) {
                throw new IllegalArgumentException("field offset " + offset + " outside 0..65535");
            }
            if (width < 0 || width > 255 || shift < 0 || shift > 63 || bits < 0 || bits > 64) {
                throw new IllegalArgumentException("field width/shift/bits out of range: "
                        + width + "/" + shift + "/" + bits);
            }
            if (nullBit < 0 || nullBit > 0xffff) {
                throw new IllegalArgumentException("null bit " + nullBit + " outside 0..65535");
            }
            if (type.typed() && (shift != 0 || bits != 0
                    || width > (type == FieldType.DECIMAL ? 18 : 0))) {
                throw new IllegalArgumentException(type + " fields have no bit field"
                        + (type == FieldType.DECIMAL ? " and a scale of 0..18" : ""));
            }
        }

        public Field(int offset, FieldType type, int width, int shift, int bits) {
            this(offset, type, width, shift, bits, 0);
        }

        public static Field of(int offset, FieldType type) {
            return new Field(offset, type, 0, 0, 0);
        }

        public boolean nullable() {
            return nullBit != 0;
        }

        /** This field, NULL where record bit {@code bit} is set. */
        public Field nullableAt(int bit) {
            return new Field(offset, type, width, shift, bits, bit + 1);
        }
    }

    private final Kind kind;
    private final int lineDelim;
    private final int fieldSep;
    private final int recordSize;
    private final List<Field> fields;

    private RecordLayout(Kind kind, int lineDelim, int fieldSep, int recordSize,
                         List<Field> fields) {
        if (fields.size() > MAX_FIELDS) {
            throw new IllegalArgumentException("a layout has at most " + MAX_FIELDS
                    + " fields, got " + fields.size());
        }
        if (recordSize <= 0) {
            throw new IllegalArgumentException("record size must be positive, got " + recordSize);
        }
        this.kind = kind;
        this.lineDelim = lineDelim;
        this.fieldSep = fieldSep;
        this.recordSize = recordSize;
        this.fields = List.copyOf(fields);
    }

    /** Fixed-width binary records of {@code recordSize} bytes. */
    public static RecordLayout fixed(int recordSize, List<Field> fields) {
        return new RecordLayout(Kind.FIXED, 0, 0, recordSize, fields);
    }

    /** Text lines ended by {@code lineDelim}, columns split by {@code fieldSep}, lines up to
     *  {@code maxLine} bytes. */
    public static RecordLayout text(char lineDelim, char fieldSep, int maxLine,
                                    List<Field> columns) {
        if (lineDelim > 0xff || fieldSep > 0xff) {
            throw new IllegalArgumentException("delimiters must be single bytes");
        }
        return new RecordLayout(Kind.TEXT, lineDelim, fieldSep, maxLine, columns);
    }

    /** Plain text lines without columns (grep, line count). */
    public static RecordLayout lines(int maxLine) {
        return text('\n', ' ', maxLine, new ArrayList<>());
    }

    public Kind kind() {
        return kind;
    }

    public int lineDelim() {
        return lineDelim;
    }

    public int fieldSep() {
        return fieldSep;
    }

    public int recordSize() {
        return recordSize;
    }

    public List<Field> fields() {
        return fields;
    }

    @Override
    public String toString() {
        return kind + "(record " + recordSize + ", " + fields.size() + " fields)";
    }
}
