package org.smartssd.device.tasklet;

import java.util.List;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.FieldType;

/** Checks of field indexes against a layout, with the messages the drive would give. */
final class Fields {
    private Fields() {
    }

    static void checkIndex(int field, String role) {
        if (field < 0 || field >= RecordLayout.MAX_FIELDS) {
            throw new IllegalArgumentException(role + " field index " + field + " outside 0.."
                    + (RecordLayout.MAX_FIELDS - 1));
        }
    }

    static FieldType type(RecordLayout layout, int field, String role) {
        return type(types(layout), field, role);
    }

    /** The fields' types of {@code layout}, as the checks below take them. */
    static List<FieldType> types(RecordLayout layout) {
        return layout.fields().stream().map(RecordLayout.Field::type).toList();
    }

    static FieldType type(List<FieldType> types, int field, String role) {
        if (field >= types.size()) {
            throw new IllegalArgumentException(role + " field index " + field
                    + " is past the layout's " + types.size() + " fields");
        }
        return types.get(field);
    }

    static void requireInteger(RecordLayout layout, int field, String role) {
        requireInteger(types(layout), field, role);
    }

    static void requireInteger(List<FieldType> types, int field, String role) {
        if (type(types, field, role) == FieldType.BYTES) {
            throw new IllegalArgumentException(role + " field " + field
                    + " must be an integer field (or f32, f64, date, timestamp, decimal), "
                    + "not BYTES");
        }
    }

    static void requireBytes(List<FieldType> types, int field, String role) {
        if (type(types, field, role) != FieldType.BYTES) {
            throw new IllegalArgumentException(role + " field " + field
                    + " must be a BYTES field, not " + type(types, field, role));
        }
    }

    /** Whether a numeric field is signed (I32, I64 and the typed ones): the drive compares
     *  those signed. */
    static boolean signed(RecordLayout layout, int field) {
        return type(layout, field, "value").signed();
    }

    /** Compares two 8-byte wire values as the drive does for a field of that signedness. */
    static int compare(long a, long b, boolean signed) {
        return signed ? Long.compare(a, b) : Long.compareUnsigned(a, b);
    }
}
