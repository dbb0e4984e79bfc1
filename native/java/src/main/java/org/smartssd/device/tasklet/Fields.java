package org.smartssd.device.tasklet;

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
        if (field >= layout.fields().size()) {
            throw new IllegalArgumentException(role + " field index " + field
                    + " is past the layout's " + layout.fields().size() + " fields");
        }
        return layout.fields().get(field).type();
    }

    static void requireInteger(RecordLayout layout, int field, String role) {
        if (type(layout, field, role) == FieldType.BYTES) {
            throw new IllegalArgumentException(role + " field " + field
                    + " must be an integer field (or f32, f64, date, timestamp, decimal), "
                    + "not BYTES");
        }
    }

    static void requireBytes(RecordLayout layout, int field, String role) {
        if (type(layout, field, role) != FieldType.BYTES) {
            throw new IllegalArgumentException(role + " field " + field
                    + " must be a BYTES field, not " + type(layout, field, role));
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
