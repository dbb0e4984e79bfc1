package org.smartssd.device;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * A tasklet instance's progress as the drive reports it. {@code error} is a negative errno
 * when the state is FAILED. Times are modelled device time.
 */
public record TaskletProgress(TaskletState state, int error, long pagesDone, long pagesTotal,
                              long records, long outputBytes, long instructions,
                              long dramAccesses, long startedNs, long finishedNs) {
    // READ_OBJECT's progress, struct ss_wire_progress (SS_REPLY_PROGRESS in ss_proto_replies.h)
    static final int STATE = 0;
    static final int ERROR = 4;
    static final int PAGES_DONE = 8;
    static final int PAGES_TOTAL = 16;
    static final int RECORDS = 24;
    static final int OUTPUT_BYTES = 32;
    static final int INSTRUCTIONS = 40;
    static final int DRAM_ACCESSES = 48;
    static final int STARTED_NS = 56;
    static final int FINISHED_NS = 64;

    static final List<WireField> FIELDS = List.of(
            WireField.u32("state", STATE),
            new WireField("error", "i32", ERROR, 4),
            WireField.u64("pages_done", PAGES_DONE),
            WireField.u64("pages_total", PAGES_TOTAL),
            WireField.u64("records", RECORDS),
            WireField.u64("output_bytes", OUTPUT_BYTES),
            WireField.u64("instructions", INSTRUCTIONS),
            WireField.u64("dram_accesses", DRAM_ACCESSES),
            WireField.u64("started_ns", STARTED_NS),
            WireField.u64("finished_ns", FINISHED_NS));

    /** Decodes the reply's wire bytes at b's start. */
    static TaskletProgress decode(ByteBuffer b) {
        ByteBuffer le = WireField.littleEndian(b);
        return new TaskletProgress(TaskletState.of(le.getInt(STATE)), le.getInt(ERROR),
                le.getLong(PAGES_DONE), le.getLong(PAGES_TOTAL), le.getLong(RECORDS),
                le.getLong(OUTPUT_BYTES), le.getLong(INSTRUCTIONS), le.getLong(DRAM_ACCESSES),
                le.getLong(STARTED_NS), le.getLong(FINISHED_NS));
    }
}
