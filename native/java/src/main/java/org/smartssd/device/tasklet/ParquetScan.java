package org.smartssd.device.tasklet;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import org.smartssd.device.InputRange;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletSpec;

/**
 * The parquet-scan tasklet (id 6): a scan plan over a Parquet file stored as an object, run
 * in the drive. The plan is the tasklet's params, made by the host from the file's footer
 * (firmware-tasklets/tasklets/README.md, "6 parquet-scan": columns, row groups, column
 * chunks, projection, WHERE tree, aggregates). The result is the tasklet's output: projected
 * rows or group-aggregate items, then the trailer.
 *
 * <p>A run the drive cannot do fails with a {@code TaskletFailedException} whose failure says
 * why: {@code INPUT_UNSUPPORTED} (a codec, encoding, type or page it does not decode: read
 * the file on the host), {@code INPUT_MALFORMED}, {@code PLAN_MISMATCH} (the plan is not of
 * this file), {@code PARAMS}, {@code BUDGET}.
 */
public final class ParquetScan {
    /** Largest plan: the drive's params limit (SS_ISP_MAX_PARAMS). */
    public static final int MAX_PLAN_BYTES = 4096;

    private ParquetScan() {
    }

    /** The tasklet spec of a plan; the tasklet takes raw pages, so its layout is unused. */
    public static TaskletSpec spec(byte[] plan, int memoryBudget) {
        if (plan.length > MAX_PLAN_BYTES) {
            throw new IllegalArgumentException("a parquet-scan plan of " + plan.length
                    + " bytes: at most " + MAX_PLAN_BYTES + " (split it by row groups)");
        }
        return new TaskletSpec(BuiltinTasklet.PARQUET_SCAN.id(), RecordLayout.lines(1), plan,
                memoryBudget, 0);
    }

    /** What a scan returned: the output before the trailer, the trailer, the final progress. */
    public record Result(byte[] body, Trailer trailer, TaskletProgress progress) {
        /** Rows of the row groups the drive decoded. */
        public long rowsScanned() {
            return trailer.recordsIn();
        }

        /** Rows (ROWS mode) or group items (AGGREGATE mode) in {@link #body()}. */
        public long items() {
            return trailer.itemsOut();
        }
    }

    /**
     * Runs {@code plan} over the whole of object {@code fileOid}, writing into the output
     * object {@code outputOid} (from {@link SmartSsdDevice#createOutput}), and returns its
     * result. The instance is released whatever happens.
     */
    public static Result run(SmartSsdDevice dev, long fileOid, byte[] plan, int memoryBudget,
                             long outputOid, Duration timeout) throws IOException {
        long instance = dev.createTasklet(spec(plan, memoryBudget), outputOid);
        try {
            dev.execute(instance, List.of(new InputRange(fileOid, 0, InputRange.TO_END)));
            TaskletProgress p = dev.await(instance, timeout, null);
            byte[] out = dev.readAllOutput(instance);
            Trailer t = Trailer.of(out, BuiltinTasklet.PARQUET_SCAN);
            byte[] body = java.util.Arrays.copyOf(out, out.length - Trailer.BYTES);
            return new Result(body, t, p);
        } finally {
            dev.destroy(instance);
        }
    }
}
