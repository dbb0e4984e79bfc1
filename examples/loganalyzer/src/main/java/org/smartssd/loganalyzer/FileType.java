package org.smartssd.loganalyzer;

/** File type codes of the WorldCup98 trace (the trace tools' definitions.h): the type byte. */
public final class FileType {
    public static final int HTML = 0;
    public static final int IMAGE = 1;
    public static final int AUDIO = 2;
    public static final int VIDEO = 3;
    public static final int JAVA = 4;
    public static final int FORMATTED = 5;
    public static final int DYNAMIC = 6;
    public static final int TEXT = 7;
    public static final int COMPRESSED = 8;
    public static final int PROGRAMS = 9;
    public static final int DIRECTORY = 10;
    public static final int ICL = 11;
    public static final int OTHER = 12;
    /** Codes the byte can hold. */
    public static final int CODES = 256;

    private static final String[] NAMES = {"html", "image", "audio", "video", "java",
        "formatted", "dynamic", "text", "compressed", "programs", "directory", "icl", "other"};

    private FileType() {
    }

    public static String name(int code) {
        if (code < 0 || code >= CODES) {
            throw new IllegalArgumentException("file type " + code + " outside 0..255");
        }
        return code < NAMES.length ? NAMES[code] : "type" + code;
    }
}
