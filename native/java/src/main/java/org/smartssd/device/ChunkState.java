package org.smartssd.device;

/** A chunk's or zone's state (enum ss_chunk_state). */
public enum ChunkState {
    FREE(1), OPEN(2), OPEN_EXPLICIT(3), CLOSED(4), FULL(5), OFFLINE(6);

    private final int code;

    ChunkState(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    static ChunkState of(int code) {
        for (ChunkState s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("no chunk state has code " + code);
    }
}
