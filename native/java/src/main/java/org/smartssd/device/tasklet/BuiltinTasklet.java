package org.smartssd.device.tasklet;

/** The drive's built-in tasklets ({@code enum ss_builtin_id}). */
public enum BuiltinTasklet {
    GROUP_AGGREGATE(1, "group-aggregate"),
    TOP_N(2, "top-n"),
    FILTER(3, "filter"),
    GREP(4, "grep"),
    DRAM_PROBE(5, "dram-probe"),
    PARQUET_SCAN(6, "parquet-scan"),
    /** A user's eBPF program loaded on the drive ({@link BpfProgram}). */
    BPF(7, "bpf");

    private final int id;
    private final String taskletName;

    BuiltinTasklet(int id, String taskletName) {
        this.id = id;
        this.taskletName = taskletName;
    }

    /** The id in the drive's tasklet registry. */
    public int id() {
        return id;
    }

    /** The name the drive registers it under. */
    public String taskletName() {
        return taskletName;
    }

    /** The built-in with this id. */
    public static BuiltinTasklet of(int id) {
        for (BuiltinTasklet t : values()) {
            if (t.id == id) {
                return t;
            }
        }
        throw new IllegalArgumentException("no built-in tasklet has id " + id);
    }
}
