package org.smartssd.device;

/** Life state of a tasklet instance. */
public enum TaskletState {
    CREATED(1), RUNNING(2), DONE(3), FAILED(4);

    private final int code;

    TaskletState(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public boolean finished() {
        return this == DONE || this == FAILED;
    }

    static TaskletState of(int code) {
        for (TaskletState s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown tasklet state " + code + " from the drive");
    }
}
