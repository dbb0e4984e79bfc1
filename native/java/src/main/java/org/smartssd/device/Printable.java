package org.smartssd.device;

/**
 * Text for a terminal: names reach messages as they were given, so what a terminal would act
 * on or not show (control characters, format characters such as U+202E RIGHT-TO-LEFT
 * OVERRIDE, lone surrogates) is written as a backslash, then x and two hex digits below
 * U+0100 or u and four above, as libsmartssd writes its own messages. The rest, non-ASCII
 * letters included, is kept as it is.
 */
public final class Printable {
    private Printable() {
    }

    public static String escape(String s) {
        if (s == null || s.codePoints().noneMatch(Printable::hidden)) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 16);
        s.codePoints().forEach(cp -> {
            if (!hidden(cp)) {
                sb.appendCodePoint(cp);
            } else if (cp < 0x100) {
                sb.append(String.format("\\x%02x", cp));
            } else {
                sb.append(String.format("\\u%04x", cp));
            }
        });
        return sb.toString();
    }

    private static boolean hidden(int cp) {
        int type = Character.getType(cp);
        return type == Character.CONTROL || type == Character.FORMAT || type == Character.SURROGATE;
    }
}
