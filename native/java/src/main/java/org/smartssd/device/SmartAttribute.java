package org.smartssd.device;

/** One SMART attribute as libatasmart parsed it from the drive's SMART READ DATA. */
public record SmartAttribute(int id, String name, int current, int worst, int threshold,
                             boolean thresholdValid, boolean prefailure, boolean goodNow,
                             boolean goodNowValid, int flags, Unit unit, long raw,
                             long prettyValue) {
    /** libatasmart's SkSmartAttributeUnit. */
    public enum Unit {
        UNKNOWN(""), NONE(""), MSECONDS("ms"), SECTORS("sectors"), MKELVIN("mK"),
        SMALL_PERCENT("%"), PERCENT("%"), MB("MB");

        private final String symbol;

        Unit(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }

        static Unit of(int code) {
            Unit[] all = values();
            return code >= 0 && code < all.length ? all[code] : UNKNOWN;
        }
    }

    /** The value in its unit, as smartctl-like tools print it (e.g. "20 ms", "41 C"). */
    public String prettyText() {
        switch (unit) {
            case MKELVIN:
                return String.format("%.1f C", (prettyValue - 273150) / 1000.0);
            case UNKNOWN:
            case NONE:
                return Long.toString(prettyValue);
            default:
                return prettyValue + " " + unit.symbol();
        }
    }
}
