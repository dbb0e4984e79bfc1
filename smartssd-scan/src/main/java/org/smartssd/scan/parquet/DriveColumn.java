package org.smartssd.scan.parquet;

import java.util.Optional;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.smartssd.device.RecordLayout;

/**
 * A flat column as the parquet-scan plan types it ({@code struct ss_bt_pq_column}): the
 * parquet.thrift physical type, the drive's logical type, the decimal scale and the maximum
 * definition level; or why the drive cannot decode it.
 */
public record DriveColumn(String name, int leaf, PrimitiveType primitive, int type, int logical,
                          int scale, int maxDefinitionLevel) {
    /** parquet.thrift Type, the plan's physical type (the drive decodes these) */
    public static final int T_BOOLEAN = 0;
    public static final int T_INT32 = 1;
    public static final int T_INT64 = 2;
    public static final int T_FLOAT = 4;
    public static final int T_DOUBLE = 5;
    public static final int T_BYTE_ARRAY = 6;
    /** enum ss_bt_pq_logical */
    public static final int L_NONE = 0;
    public static final int L_STRING = 1;
    public static final int L_DATE = 2;
    public static final int L_TS_MILLIS = 3;
    public static final int L_TS_MICROS = 4;
    public static final int L_DECIMAL = 5;

    /** A type the drive decodes, or the reason it does not. */
    public record Typing(DriveColumn column, String unsupported) {
        public Optional<DriveColumn> supported() {
            return Optional.ofNullable(column);
        }
    }

    /**
     * The field type the drive's WHERE tree, keys and aggregates read this column as
     * (pq_scan.c field_type): its comparisons' signedness, and IS NULL's kind.
     */
    public RecordLayout.FieldType fieldType() {
        return switch (type) {
            case T_BOOLEAN -> RecordLayout.FieldType.U8;
            case T_INT32 -> logical == L_DATE ? RecordLayout.FieldType.DATE
                    : logical == L_DECIMAL ? RecordLayout.FieldType.DECIMAL
                    : RecordLayout.FieldType.I32;
            case T_INT64 -> logical == L_DECIMAL ? RecordLayout.FieldType.DECIMAL
                    : logical == L_NONE ? RecordLayout.FieldType.I64
                    : RecordLayout.FieldType.TIMESTAMP;
            case T_FLOAT -> RecordLayout.FieldType.F32;
            case T_DOUBLE -> RecordLayout.FieldType.F64;
            default -> RecordLayout.FieldType.BYTES;
        };
    }

    /** FLOAT or DOUBLE: the drive holds its values as order keys, so -0.0 comes back 0.0. */
    public boolean floating() {
        return type == T_FLOAT || type == T_DOUBLE;
    }

    /** Types leaf {@code leaf} of a file's schema, described by {@code d}. */
    public static Typing of(int leaf, ColumnDescriptor d) {
        String name = String.join(".", d.getPath());
        if (d.getPath().length > 1 || d.getMaxRepetitionLevel() > 0
                || d.getMaxDefinitionLevel() > 1) {
            return no(name, "nested column");
        }
        PrimitiveType p = d.getPrimitiveType();
        int type;
        switch (p.getPrimitiveTypeName()) {
            case BOOLEAN -> type = T_BOOLEAN;
            case INT32 -> type = T_INT32;
            case INT64 -> type = T_INT64;
            case FLOAT -> type = T_FLOAT;
            case DOUBLE -> type = T_DOUBLE;
            case BINARY -> type = T_BYTE_ARRAY;
            default -> {
                return no(name, p.getPrimitiveTypeName() + " column");
            }
        }
        LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
        int logical = L_NONE;
        int scale = 0;
        if (a instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation && type == T_BYTE_ARRAY) {
            logical = L_STRING;
        } else if (a instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation && type == T_INT32) {
            logical = L_DATE;
        } else if (a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts
                && type == T_INT64 && ts.getUnit() != LogicalTypeAnnotation.TimeUnit.NANOS) {
            logical = ts.getUnit() == LogicalTypeAnnotation.TimeUnit.MILLIS ? L_TS_MILLIS
                    : L_TS_MICROS;
        } else if (a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation dec
                && (type == T_INT32 || type == T_INT64) && dec.getScale() <= 18) {
            logical = L_DECIMAL;
            scale = dec.getScale();
        } else if (a instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i
                && i.isSigned() && (type == T_INT32 || type == T_INT64)) {
            logical = L_NONE;
        } else if (a != null) {
            return no(name, "type " + p.getPrimitiveTypeName() + " " + a);
        }
        return new Typing(new DriveColumn(name, leaf, p, type, logical, scale,
                d.getMaxDefinitionLevel()), null);
    }

    private static Typing no(String name, String why) {
        return new Typing(null, "column " + name + ": " + why);
    }
}
