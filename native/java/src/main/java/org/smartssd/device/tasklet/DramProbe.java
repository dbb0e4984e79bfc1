package org.smartssd.device.tasklet;

import org.smartssd.device.TaskletFailedException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.TaskletSpec;

/**
 * The dram-probe tasklet (id 5), the calibration of Kang Fig. 6.6: per input page,
 * {@code accesses} 4-byte loads compared with {@code compare}. Params: 8 bytes. Output: the
 * trailer only (records_in = pages, aux = loads equal to compare).
 */
public record DramProbe(long accesses, int compare) {
    public static final int PARAMS_BYTES = 8;
    public static final long MAX_ACCESSES = 1_048_576;

    public DramProbe {
        if (accesses < 0 || accesses > MAX_ACCESSES) {
            throw new IllegalArgumentException("dram-probe accesses per page " + accesses
                    + " outside 0.." + MAX_ACCESSES);
        }
    }

    /** The params bytes ({@code struct ss_bt_probe_params}). */
    public byte[] params() {
        return ByteBuffer.allocate(PARAMS_BYTES).order(ByteOrder.LITTLE_ENDIAN)
                .putInt((int) accesses).putInt(compare).array();
    }

    /** The tasklet spec; the tasklet reads pages, so any layout serves. */
    public TaskletSpec spec(RecordLayout layout, int memoryBudget, long stepLimit) {
        return new TaskletSpec(BuiltinTasklet.DRAM_PROBE.id(), layout, params(), memoryBudget,
                stepLimit);
    }

    /** A decoded output: pages probed and loads that matched. */
    public record Output(Trailer trailer) {
        public long pages() {
            return trailer.recordsIn();
        }

        public long matchingLoads() {
            return trailer.aux();
        }
    }

    public static Output decode(byte[] output) throws TaskletFailedException {
        Trailer t = Trailer.of(output, BuiltinTasklet.DRAM_PROBE);
        if (output.length != Trailer.BYTES) {
            throw TaskletFailedException.incompleteOutput("dram-probe output has "
                    + (output.length - Trailer.BYTES) + " bytes before its trailer");
        }
        t.checkItems(0);
        return new Output(t);
    }
}
