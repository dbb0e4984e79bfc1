package org.smartssd.loganalyzer;

/** A file type and how many requests of one region asked for it. */
public record TypeCount(int type, long count) {
    public TypeCount {
        if (type < 0 || type >= FileType.CODES || count < 0) {
            throw new IllegalArgumentException("bad type count " + type + "/" + count);
        }
    }

    @Override
    public String toString() {
        return FileType.name(type) + " " + count;
    }
}
