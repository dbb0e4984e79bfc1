package org.smartssd.cli;

import java.util.Locale;

/** Byte sizes on the command line: 4096, 64K, 256M, 2G (binary multiples), 1T. */
final class Sizes {
    private Sizes() {
    }

    static long parse(String s) {
        String t = s.trim().toUpperCase(Locale.ROOT);
        if (t.endsWith("IB")) {
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("B")) {
            t = t.substring(0, t.length() - 1);
        }
        long mult = 1;
        if (!t.isEmpty()) {
            switch (t.charAt(t.length() - 1)) {
                case 'K': mult = 1L << 10; break;
                case 'M': mult = 1L << 20; break;
                case 'G': mult = 1L << 30; break;
                case 'T': mult = 1L << 40; break;
                default: mult = 1;
            }
            if (mult != 1) {
                t = t.substring(0, t.length() - 1);
            }
        }
        long v;
        try {
            v = Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' is not a size (e.g. 4096, 64K, 256M, 2G)");
        }
        if (v <= 0 || v > Long.MAX_VALUE / mult) {
            throw new IllegalArgumentException("size '" + s + "' out of range");
        }
        return v * mult;
    }

    static String human(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
