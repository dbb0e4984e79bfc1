package org.smartssd.device;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * One SMART attribute as libatasmart parsed it from the drive's SMART READ DATA, named by
 * the drive's own table (SS_PROTO_SMART_ATTRS in protocol/include/ss_proto.h): {@code name}
 * and {@code unit} (the raw value's) are the drive's; {@code atasmartName} is libatasmart's
 * name where it means the same quantity, else empty; {@code prettyUnit} and
 * {@code prettyValue} are libatasmart's reading of the raw value, wrong for some of this
 * drive's attributes (native/PROTOCOL.md 6.2).
 */
public record SmartAttribute(int id, int current, int worst, int threshold,
                             boolean thresholdValid, boolean prefailure, boolean goodNow,
                             boolean goodNowValid, int flags, PrettyUnit prettyUnit, long raw,
                             long prettyValue, String name, String unit, String atasmartName) {
    // One attribute as the JNI library packs it (SS_DEV_SMART_ATTR in smartssd.h)
    static final int ID = 0;
    static final int CURRENT = 1;
    static final int WORST = 2;
    static final int THRESHOLD = 3;
    static final int THRESHOLD_VALID = 4;
    static final int PREFAILURE = 5;
    static final int GOOD_NOW = 6;
    static final int GOOD_NOW_VALID = 7;
    static final int FLAGS = 8;
    static final int PRETTY_UNIT = 10;
    static final int RAW = 14;
    static final int PRETTY_VALUE = 22;
    static final int NAME = 30;
    static final int NAME_BYTES = 32;
    static final int UNIT = 62;
    static final int UNIT_BYTES = 16;
    static final int ATASMART_NAME = 78;

    static final List<WireField> FIELDS = List.of(
            WireField.u8("id", ID),
            WireField.u8("current", CURRENT),
            WireField.u8("worst", WORST),
            WireField.u8("threshold", THRESHOLD),
            WireField.u8("threshold_valid", THRESHOLD_VALID),
            WireField.u8("prefailure", PREFAILURE),
            WireField.u8("good_now", GOOD_NOW),
            WireField.u8("good_now_valid", GOOD_NOW_VALID),
            WireField.u16("flags", FLAGS),
            WireField.u32("pretty_unit", PRETTY_UNIT),
            WireField.u64("raw", RAW),
            WireField.u64("pretty_value", PRETTY_VALUE),
            WireField.cstr("name", NAME, NAME_BYTES),
            WireField.cstr("unit", UNIT, UNIT_BYTES),
            WireField.cstr("atasmart_name", ATASMART_NAME, NAME_BYTES));

    /** Bytes of one packed attribute: the stride of the JNI library's attribute array. */
    static final int SIZE = WireField.size(FIELDS);

    /** Decodes the attribute packed at {@code at} in b. */
    static SmartAttribute decode(ByteBuffer b, int at) {
        ByteBuffer le = WireField.littleEndian(b);
        return new SmartAttribute(WireField.u8(le, at + ID), WireField.u8(le, at + CURRENT),
                WireField.u8(le, at + WORST), WireField.u8(le, at + THRESHOLD),
                WireField.u8(le, at + THRESHOLD_VALID) != 0, WireField.u8(le, at + PREFAILURE) != 0,
                WireField.u8(le, at + GOOD_NOW) != 0, WireField.u8(le, at + GOOD_NOW_VALID) != 0,
                Short.toUnsignedInt(le.getShort(at + FLAGS)),
                PrettyUnit.of(le.getInt(at + PRETTY_UNIT)), le.getLong(at + RAW),
                le.getLong(at + PRETTY_VALUE), WireField.cstr(le, at + NAME, NAME_BYTES),
                WireField.cstr(le, at + UNIT, UNIT_BYTES),
                WireField.cstr(le, at + ATASMART_NAME, NAME_BYTES));
    }

    /** libatasmart's SkSmartAttributeUnit. */
    public enum PrettyUnit {
        UNKNOWN(""), NONE(""), MSECONDS("ms"), SECTORS("sectors"), MKELVIN("mK"),
        SMALL_PERCENT("%"), PERCENT("%"), MB("MB");

        private final String symbol;

        PrettyUnit(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }

        static PrettyUnit of(int code) {
            PrettyUnit[] all = values();
            return code >= 0 && code < all.length ? all[code] : UNKNOWN;
        }
    }

    /** The raw value in the drive's unit, e.g. "586 sectors", "40 C". */
    public String valueText() {
        // the temperature's raw value holds the degrees in its low 16 bits
        long v = unit.equals("C") ? (short) raw : raw;
        return unit.isEmpty() ? Long.toString(v) : v + " " + unit;
    }

    /** libatasmart's reading of the value, as smartctl-like tools print it (e.g. "20 ms"). */
    public String prettyText() {
        switch (prettyUnit) {
            case MKELVIN:
                return String.format("%.1f C", (prettyValue - 273150) / 1000.0);
            case UNKNOWN:
            case NONE:
                return Long.toString(prettyValue);
            default:
                return prettyValue + " " + prettyUnit.symbol();
        }
    }
}
