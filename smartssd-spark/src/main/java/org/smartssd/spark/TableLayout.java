package org.smartssd.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;

/**
 * A table's record layout: named columns over the drive's {@link RecordLayout} (fixed-width
 * big-endian records), each with the Spark type that holds every value of its field.
 *
 * <p>The {@code layout} option is {@code wc98} (the WorldCup98 record, padded to
 * {@code recordSize}) or a field list {@code name:type@offset[>>shift][&mask][?bit], ...}
 * where type is {@code u8 u16 u32 u64 i32 i64}, {@code bytes(W)}, {@code f32 f64} (IEEE
 * FLOAT, DOUBLE), {@code date} (i32 days since 1970-01-01), {@code timestamp} (i64
 * microseconds since 1970-01-01T00:00Z) or {@code decimal(P,S)} (P <= 18: the unscaled i64);
 * {@code >>shift} and {@code &mask} (a mask of low bits, 2^k-1) make a bit field
 * {@code (raw >> shift) & mask}; {@code ?bit} makes the column nullable, NULL where bit
 * {@code bit} of the record is set (byte bit/8, mask 0x80 >> bit%8).
 */
public final class TableLayout implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final String WC98 = "wc98";
    public static final int WC98_RECORD_BYTES = 20;

    /**
     * One column: its name and its field of the drive's layout. A text column is NULL where the
     * line has no such column or (integers) its text is not a number of the type's range, as
     * Spark's CSV reader makes it; a fixed-width field is NULL where its null flag is set, and
     * has no NULL without one. {@code precision} is a DECIMAL column's (its scale is the
     * field's width); 0 otherwise.
     */
    public record Column(String name, Field field, boolean nullable, int precision) {
        Column(String name, Field field, boolean nullable) {
            this(name, field, nullable, 0);
        }

        Column(String name, Field field) {
            this(name, field, field.nullable(), 0);
        }

        /** F32 or F64: values compare by the drive's order keys, not as integers. */
        public boolean isFloat() {
            return field.type() == FieldType.F32 || field.type() == FieldType.F64;
        }

        /** Bits of an integer value (the bit field's width, or the type's). */
        public int valueBits() {
            if (field.bits() != 0) {
                return field.bits();
            }
            return typeBits(field.type()) - field.shift();
        }

        public boolean signed() {
            return field.bits() == 0 && field.shift() == 0 && field.type().signed();
        }

        public boolean isBytes() {
            return field.type() == FieldType.BYTES;
        }

        /** The smallest Spark type holding every value of the field. */
        public DataType sparkType() {
            if (isBytes()) {
                return DataTypes.StringType;
            }
            switch (field.type()) {
                case F32:
                    return DataTypes.FloatType;
                case F64:
                    return DataTypes.DoubleType;
                case DATE:
                    return DataTypes.DateType;
                case TIMESTAMP:
                    return DataTypes.TimestampType;
                case DECIMAL:
                    return DecimalType.apply(precision, field.width());
                default:
                    break;
            }
            int bits = signed() ? valueBits() - 1 : valueBits();
            if (bits <= 7) {
                return DataTypes.ByteType;
            }
            if (bits <= 15) {
                return DataTypes.ShortType;
            }
            if (bits <= 31) {
                return DataTypes.IntegerType;
            }
            if (bits <= 63) {
                return DataTypes.LongType;
            }
            return DecimalType.apply(20, 0);
        }

        /** Smallest value of the field as the drive reports it (signed fields sign-extended;
         *  a DECIMAL's unscaled values, a float's order keys). */
        public java.math.BigInteger min() {
            if (field.type() == FieldType.DECIMAL) {
                return max().negate();
            }
            return signed() ? java.math.BigInteger.ONE.shiftLeft(valueBits() - 1).negate()
                    : java.math.BigInteger.ZERO;
        }

        public java.math.BigInteger max() {
            if (field.type() == FieldType.DECIMAL) {
                return java.math.BigInteger.TEN.pow(precision).subtract(java.math.BigInteger.ONE);
            }
            return signed() ? java.math.BigInteger.ONE.shiftLeft(valueBits() - 1)
                    .subtract(java.math.BigInteger.ONE)
                    : java.math.BigInteger.ONE.shiftLeft(valueBits())
                            .subtract(java.math.BigInteger.ONE);
        }
    }

    /** A text layout's bytes: the field separator, the line terminator, the longest line. */
    public record Text(byte sep, byte lineSep, int maxLine) implements Serializable {
        @Override
        public String toString() {
            return "text, sep " + show(sep) + ", lineSep " + show(lineSep) + ", lines up to "
                    + maxLine + " bytes";
        }

        private static String show(byte b) {
            return switch (b) {
                case '\n' -> "'\\n'";
                case '\r' -> "'\\r'";
                case '\t' -> "'\\t'";
                default -> "'" + (char) (b & 0xff) + "'";
            };
        }
    }

    public static final int TEXT_MAX_LINE_DEFAULT = 4096;

    /** One byte of a separator option: a character of U+0001..U+00FF, or \t \n \r. */
    private static byte separator(String option, String v) {
        String s = switch (v) {
            case "\\t" -> "\t";
            case "\\n" -> "\n";
            case "\\r" -> "\r";
            default -> v;
        };
        if (s.length() != 1 || s.charAt(0) == 0 || s.charAt(0) > 0xff) {
            throw new IllegalArgumentException("option '" + option + "' is one byte (a character "
                    + "of U+0001..U+00FF, or \\t \\n \\r), got '" + v + "'");
        }
        return (byte) s.charAt(0);
    }

    private static Text textOf(Map<String, String> options) {
        byte sep = separator("sep", options.get("sep"));
        byte lineSep = options.containsKey("lineSep")
                ? separator("lineSep", options.get("lineSep")) : (byte) '\n';
        if (sep == lineSep) {
            throw new IllegalArgumentException("options 'sep' and 'lineSep' are the same byte");
        }
        int max = TEXT_MAX_LINE_DEFAULT;
        String m = options.get("maxLineLength");
        if (m != null) {
            try {
                max = Integer.parseInt(m.trim());
            } catch (NumberFormatException e) {
                max = -1;
            }
            if (max < 1 || max > MAX_LINE) {
                throw new IllegalArgumentException("option 'maxLineLength' is 1.." + MAX_LINE
                        + " bytes, got '" + m + "'");
            }
        }
        return new Text(sep, lineSep, max);
    }

    /** The drive's longest record or line (SS_ISP_MAX_RECORD). */
    static final int MAX_LINE = 65535;

    private final int recordSize;
    private final List<Column> columns;
    private final String spec;
    private final Text text;

    private TableLayout(int recordSize, List<Column> columns, String spec) {
        this(recordSize, columns, spec, null);
    }

    private TableLayout(int recordSize, List<Column> columns, String spec, Text text) {
        this.recordSize = recordSize;
        this.columns = List.copyOf(columns);
        this.spec = spec;
        this.text = text;
        Map<String, Column> seen = new LinkedHashMap<>();
        for (Column c : columns) {
            if (seen.put(c.name().toLowerCase(Locale.ROOT), c) != null) {
                throw new IllegalArgumentException("layout names column '" + c.name() + "' twice");
            }
            if (text != null) {
                continue;
            }
            int width = c.isBytes() ? c.field().width() : typeBits(c.field().type()) / 8;
            if (c.field().nullable() && (c.field().nullBit() - 1) / 8 >= recordSize) {
                throw new IllegalArgumentException("column '" + c.name() + "': null bit "
                        + (c.field().nullBit() - 1) + " is past a record of " + recordSize
                        + " bytes");
            }
            if (c.field().offset() + width > recordSize) {
                throw new IllegalArgumentException("column '" + c.name() + "' (bytes "
                        + c.field().offset() + ".." + (c.field().offset() + width - 1)
                        + ") does not fit a record of " + recordSize + " bytes");
            }
        }
        // the drive checks the field list too, at tasklet create time
        recordLayout();
    }

    /**
     * The layout of a table's options: {@code layout} and {@code recordSize}.
     *
     * @throws IllegalArgumentException naming what is wrong with the options
     */
    public static TableLayout fromOptions(Map<String, String> options) {
        String layout = options.get("layout");
        if (layout == null || layout.isBlank()) {
            throw new IllegalArgumentException("option 'layout' is missing: give 'wc98' or a "
                    + "field list such as 'ts:u32@0, url:bytes(16)@4'");
        }
        if (options.containsKey("sep")) {
            if (options.containsKey("recordSize")) {
                throw new IllegalArgumentException("option 'recordSize' is for fixed-width "
                        + "records; a text layout (option 'sep') takes 'maxLineLength'");
            }
            return parseText(layout.trim(), textOf(options));
        }
        if (options.containsKey("lineSep") || options.containsKey("maxLineLength")) {
            throw new IllegalArgumentException("options 'lineSep' and 'maxLineLength' are for "
                    + "text layouts, which option 'sep' (the field separator) makes");
        }
        String rs = options.get("recordSize");
        Integer recordSize = null;
        if (rs != null) {
            try {
                recordSize = Integer.parseInt(rs.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("option 'recordSize' is not a number: '" + rs
                        + "'");
            }
            if (recordSize <= 0) {
                throw new IllegalArgumentException("option 'recordSize' must be positive, got "
                        + recordSize);
            }
        }
        return parse(layout.trim(), recordSize);
    }

    /** The layout {@code spec} (see the class comment) with records of {@code recordSize}
     *  bytes (null: wc98's 20, or a field list's end). */
    public static TableLayout parse(String spec, Integer recordSize) {
        if (spec.equalsIgnoreCase(WC98)) {
            int size = recordSize == null ? WC98_RECORD_BYTES : recordSize;
            if (size < WC98_RECORD_BYTES) {
                throw new IllegalArgumentException("a wc98 record is at least "
                        + WC98_RECORD_BYTES + " bytes, recordSize is " + size);
            }
            return new TableLayout(size, wc98Columns(), WC98);
        }
        List<Column> cols = new ArrayList<>();
        int end = 0;
        // a decimal(P,S) type holds a comma of its own
        for (String part : spec.split(",(?![^()]*\\))")) {
            Column c = parseColumn(part.trim(), spec);
            cols.add(c);
            int width = c.isBytes() ? c.field().width() : typeBits(c.field().type()) / 8;
            end = Math.max(end, c.field().offset() + width);
            if (c.field().nullable()) {
                end = Math.max(end, (c.field().nullBit() - 1) / 8 + 1);
            }
        }
        if (cols.size() > RecordLayout.MAX_FIELDS) {
            throw new IllegalArgumentException("a layout has at most " + RecordLayout.MAX_FIELDS
                    + " columns, '" + spec + "' has " + cols.size());
        }
        return new TableLayout(recordSize == null ? end : recordSize, cols, spec);
    }

    private static final Pattern TEXT_COLUMN = Pattern.compile(
            "([A-Za-z_][A-Za-z0-9_]*)\\s*:\\s*(i32|i64|string)(?:\\s*@\\s*(\\d+))?",
            Pattern.CASE_INSENSITIVE);

    /**
     * A text layout: {@code name:type[@column], ...} with type {@code i32}, {@code i64} or
     * {@code string}; the column index (0-based) defaults to the field's place in the list.
     */
    public static TableLayout parseText(String spec, Text text) {
        List<Column> cols = new ArrayList<>();
        String[] parts = spec.split(",");
        for (int i = 0; i < parts.length; i++) {
            String s = parts[i].trim();
            Matcher m = TEXT_COLUMN.matcher(s);
            if (!m.matches()) {
                throw new IllegalArgumentException("bad text layout column '" + s + "' in '"
                        + spec + "': expected name:type[@column] with type i32, i64 or string "
                        + "(option 'sep' makes the layout text)");
            }
            int index = m.group(3) == null ? i : Integer.parseInt(m.group(3));
            if (index > 0xffff) {
                throw new IllegalArgumentException("text column '" + m.group(1) + "': index "
                        + index + " is past 65535");
            }
            FieldType t = switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "i32" -> FieldType.I32;
                case "i64" -> FieldType.I64;
                default -> FieldType.BYTES;
            };
            cols.add(new Column(m.group(1), Field.of(index, t), true));
        }
        if (cols.size() > RecordLayout.MAX_FIELDS) {
            throw new IllegalArgumentException("a layout has at most " + RecordLayout.MAX_FIELDS
                    + " columns, '" + spec + "' has " + cols.size());
        }
        return new TableLayout(text.maxLine(), cols, spec, text);
    }

    private static final Pattern COLUMN = Pattern.compile(
            "([A-Za-z_][A-Za-z0-9_]*)\\s*:\\s*(u8|u16|u32|u64|i32|i64|f32|f64|date|timestamp"
                    + "|bytes\\((\\d+)\\)|decimal\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\))\\s*@\\s*(\\d+)"
                    + "(?:\\s*>>\\s*(\\d+))?(?:\\s*&\\s*(\\d+))?(?:\\s*\\?\\s*(\\d+))?",
            Pattern.CASE_INSENSITIVE);

    private static Column parseColumn(String s, String spec) {
        Matcher m = COLUMN.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("bad layout column '" + s + "' in '" + spec
                    + "': expected name:type@offset[>>shift][&mask][?nullbit] with type u8, u16, "
                    + "u32, u64, i32, i64, f32, f64, date, timestamp, decimal(P,S) or bytes(W), "
                    + "or the built-in layout 'wc98'");
        }
        String name = m.group(1);
        String type = m.group(2).toLowerCase(Locale.ROOT);
        int offset = Integer.parseInt(m.group(6));
        String shiftText = m.group(7);
        String maskText = m.group(8);
        int nullBit = m.group(9) == null ? -1 : Integer.parseInt(m.group(9));
        Column c = column(name, type, m, offset, shiftText, maskText);
        if (nullBit < 0) {
            return c;
        }
        if (nullBit > 0xfffe) {
            throw new IllegalArgumentException("column '" + name + "': null bit " + nullBit
                    + " is past 65534");
        }
        return new Column(name, c.field().nullableAt(nullBit), true, c.precision());
    }

    private static Column column(String name, String type, Matcher m, int offset,
                                 String shiftText, String maskText) {
        boolean bitField = shiftText != null || maskText != null;
        if (type.startsWith("bytes")) {
            int width = Integer.parseInt(m.group(3));
            if (width < 1 || width > 255) {
                throw new IllegalArgumentException("column '" + name + "': a bytes field "
                        + "is 1..255 bytes wide, got " + width);
            }
            if (bitField) {
                throw new IllegalArgumentException("column '" + name + "': a bytes field "
                        + "has no bit field");
            }
            return new Column(name, new Field(offset, FieldType.BYTES, width, 0, 0));
        }
        if (type.startsWith("decimal")) {
            int p = Integer.parseInt(m.group(4));
            int sc = Integer.parseInt(m.group(5));
            if (p < 1 || p > 18 || sc > p) {
                throw new IllegalArgumentException("column '" + name + "': decimal(" + p + ","
                        + sc + ") is not stored: the drive keeps DECIMAL(P,S) with 1 <= P <= 18 "
                        + "and S <= P as a scaled 64-bit integer");
            }
            if (bitField) {
                throw new IllegalArgumentException("column '" + name + "': a decimal field "
                        + "has no bit field");
            }
            return new Column(name, new Field(offset, FieldType.DECIMAL, sc, 0, 0), false, p);
        }
        FieldType t = FieldType.valueOf(type.toUpperCase(Locale.ROOT));
        if (t.typed() && bitField) {
            throw new IllegalArgumentException("column '" + name + "': a " + type + " field "
                    + "has no bit field");
        }
        int shift = shiftText == null ? 0 : Integer.parseInt(shiftText);
        int bits = 0;
        if (maskText != null) {
            long mask = Long.parseLong(maskText);
            if (mask <= 0 || (mask & (mask + 1)) != 0) {
                throw new IllegalArgumentException("column '" + name + "': mask " + mask
                        + " is not a run of low bits (2^k-1)");
            }
            bits = Long.bitCount(mask);
        } else if (shift != 0) {
            bits = typeBits(t) - shift;
        }
        if (shift >= typeBits(t) || shift + bits > typeBits(t)) {
            throw new IllegalArgumentException("column '" + name + "': bits " + shift
                    + ".." + (shift + bits - 1) + " are outside a " + t + " field");
        }
        if ((bits != 0 || shift != 0) && (t == FieldType.I32 || t == FieldType.I64)) {
            throw new IllegalArgumentException("column '" + name + "': bit fields are "
                    + "taken of unsigned fields only");
        }
        return new Column(name, new Field(offset, t, 0, shift, bits));
    }

    private static List<Column> wc98Columns() {
        return List.of(
                new Column("timestamp", Field.of(0, FieldType.U32)),
                new Column("clientID", Field.of(4, FieldType.U32)),
                new Column("objectID", Field.of(8, FieldType.U32)),
                new Column("size", Field.of(12, FieldType.U32)),
                new Column("method", Field.of(16, FieldType.U8)),
                new Column("status", Field.of(17, FieldType.U8)),
                new Column("type", Field.of(18, FieldType.U8)),
                new Column("server", Field.of(19, FieldType.U8)),
                new Column("region", new Field(19, FieldType.U8, 0, 5, 3)),
                new Column("statusCode", new Field(17, FieldType.U8, 0, 0, 6)));
    }

    static int typeBits(FieldType t) {
        return t.bits();
    }

    /** Bytes per record (fixed); the longest line (text). */
    public int recordSize() {
        return recordSize;
    }

    /** The text layout's separators, or null for fixed-width records. */
    public Text text() {
        return text;
    }

    public boolean isText() {
        return text != null;
    }

    public List<Column> columns() {
        return columns;
    }

    /** The layout option that gives this layout back (with {@link #recordSize}). */
    public String spec() {
        return spec;
    }

    /** Index of the column named {@code name} (case-insensitive), or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    public List<Field> fields() {
        List<Field> f = new ArrayList<>();
        columns.forEach(c -> f.add(c.field()));
        return f;
    }

    /** The drive's view: field i is column i. */
    public RecordLayout recordLayout() {
        return text == null ? RecordLayout.fixed(recordSize, fields())
                : RecordLayout.text((char) (text.lineSep() & 0xff), (char) (text.sep() & 0xff),
                        text.maxLine(), fields());
    }

    public StructType schema() {
        List<StructField> f = new ArrayList<>();
        for (Column c : columns) {
            f.add(new StructField(c.name(), c.sparkType(), c.nullable(), Metadata.empty()));
        }
        return new StructType(f.toArray(new StructField[0]));
    }

    /** Serialized as its spec and record size: RecordLayout's fields are not Serializable. */
    private Object writeReplace() {
        return new Form(spec, recordSize, text);
    }

    private record Form(String spec, int recordSize, Text text) implements Serializable {
        private Object readResolve() {
            return text == null ? parse(spec, recordSize) : parseText(spec, text);
        }
    }

    @Override
    public String toString() {
        return text == null ? spec + " (" + recordSize + "-byte records)"
                : spec + " (" + text + ")";
    }
}
