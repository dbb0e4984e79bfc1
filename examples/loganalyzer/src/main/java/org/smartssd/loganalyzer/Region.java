package org.smartssd.loganalyzer;

/**
 * The regions of the WorldCup98 servers: the top 3 bits of the server byte. The trace uses
 * 0..3 (the trace tools' definitions.h); 4..7 fit the field and print as "region N".
 */
public final class Region {
    /** Codes the 3-bit field can hold. */
    public static final int CODES = 8;
    private static final String[] NAMES = {"Santa Clara", "Plano", "Herndon", "Paris"};
    /** Regions of the real trace. */
    public static final int TRACE_REGIONS = NAMES.length;

    private Region() {
    }

    public static String name(int code) {
        if (code < 0 || code >= CODES) {
            throw new IllegalArgumentException("region code " + code + " outside 0..7");
        }
        return code < NAMES.length ? NAMES[code] : "region " + code;
    }
}
