package org.smartssd.device;

/** What an object in the drive's namespace is. */
public enum ObjectType {
    FILE(1), DIRECTORY(2), OUTPUT(3);

    private final int code;

    ObjectType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The type with this wire code; unknown codes are reported, never guessed. */
    public static ObjectType of(int code) {
        for (ObjectType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown object type code " + code + " from the drive");
    }
}
