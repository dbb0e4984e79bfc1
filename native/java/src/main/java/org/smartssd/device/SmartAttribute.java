package org.smartssd.device;

/**
 * One SMART attribute as libatasmart parsed it from the drive's SMART READ DATA, named by
 * the drive's own table (SS_PROTO_SMART_ATTRS in protocol/include/ss_proto.h): {@code name}
 * and {@code unit} (the raw value's) are the drive's; {@code atasmartName} is libatasmart's
 * name where it means the same quantity, else empty; {@code prettyUnit} and
 * {@code prettyValue} are libatasmart's reading of the raw value, wrong for some of this
 * drive's attributes (native/PROTOCOL.md 6.2). The components are the fields of
 * SS_DEV_SMART_ATTR in {@code smartssd/smartssd.h}, in its order ({@link WireDecoder}).
 */
public record SmartAttribute(int id, int current, int worst, int threshold,
                             boolean thresholdValid, boolean prefailure, boolean goodNow,
                             boolean goodNowValid, int flags, PrettyUnit prettyUnit, long raw,
                             long prettyValue, String name, String unit, String atasmartName) {
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
