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
        U8(1), U16(2), U32(3), U64(4), I32(5), I64(6), BYTES(7);

        final int code;

        FieldType(int code) {
            this.code = code;
        }

        /** Bits of an integer type's raw value; 0 for BYTES. */
        public int bits() {
            return switch (this) {
                case U8 -> 8;
                case U16 -> 16;
                case U32, I32 -> 32;
                case U64, I64 -> 64;
                case BYTES -> 0;
            };
        }
    }

    /**
     * One field. For FIXED layouts {@code offset} is the byte offset in the record, for TEXT
     * the column index. Integer fields read as {@code (raw >> shift) & mask(bits)} when
     * {@code bits != 0}; BYTES fields of FIXED layouts are {@code width} bytes.
     */
    public record Field(int offset, FieldType type, int width, int shift, int bits) {
        public Field {
            if (offset < 0 || offset > 0xffff) {
                throw new IllegalArgumentException("field offset " + offset + " outside 0..65535");
            }
            if (width < 0 || width > 255 || shift < 0 || shift > 63 || bits < 0 || bits > 64) {
                throw new IllegalArgumentException("field width/shift/bits out of range: "
                        + width + "/" + shift + "/" + bits);
            }
        }

        public static Field of(int offset, FieldType type) {
            return new Field(offset, type, 0, 0, 0);
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
