package org.smartssd.device;

/** The interface a drive is formatted with ({@code smartssd format --interface}). */
public enum DriveInterface {
    /** Logical blocks through the FTL, with the object store, tasklets and cache. */
    FTL("ftl"),
    /** Open-channel SSD 2.0: chunks by physical address, vector I/O. */
    OPEN_CHANNEL("open-channel"),
    /** Zoned namespaces: zones with write pointers, zone append. */
    ZONED("zoned");

    private final String word;

    DriveInterface(String word) {
        this.word = word;
    }

    /** The word smartssd format takes for it. */
    public String word() {
        return word;
    }

    /** The interface of this wire code (enum ss_interface). */
    public static DriveInterface of(int code) {
        if (code < 0 || code >= values().length) {
            throw new IllegalArgumentException("no drive interface has code " + code);
        }
        return values()[code];
    }

    /** The interface smartssd format calls {@code word}. */
    public static DriveInterface ofWord(String word) {
        for (DriveInterface i : values()) {
            if (i.word.equals(word)) {
                return i;
            }
        }
        throw new IllegalArgumentException("interface '" + word
                + "': not ftl, open-channel or zoned");
    }
}
