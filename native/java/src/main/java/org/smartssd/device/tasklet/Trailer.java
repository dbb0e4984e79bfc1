package org.smartssd.device.tasklet;

import org.smartssd.device.TaskletFailedException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The 32 bytes that end every built-in tasklet's output ({@code struct ss_bt_trailer}):
 * records examined, items written and a per-tasklet figure ({@code aux}: spills for
 * group-aggregate and top-N, matches for filter and grep, matching loads for dram-probe).
 */
public record Trailer(BuiltinTasklet tasklet, long recordsIn, long itemsOut, long aux) {
    public static final int BYTES = 32;
    public static final int MAGIC = 0x52545353; // "SSTR"

    /**
     * The trailer at the end of {@code output}.
     *
     * @throws TaskletFailedException when the output is shorter than a trailer, its magic
     *                                   is wrong or it belongs to another tasklet
     */
    public static Trailer of(byte[] output, BuiltinTasklet expected)
            throws TaskletFailedException {
        if (output.length < BYTES) {
            throw TaskletFailedException.incompleteOutput(expected.taskletName() + " output of "
                    + output.length + " bytes has no trailer (the run did not complete)");
        }
        ByteBuffer b = ByteBuffer.wrap(output, output.length - BYTES, BYTES)
                .order(ByteOrder.LITTLE_ENDIAN);
        int magic = b.getInt();
        int id = b.getInt();
        if (magic != MAGIC) {
            throw TaskletFailedException.incompleteOutput(expected.taskletName() + " output of "
                    + output.length + " bytes ends without a valid trailer (magic 0x"
                    + Integer.toHexString(magic) + "): the run did not complete");
        }
        if (id != expected.id()) {
            throw TaskletFailedException.incompleteOutput("expected " + expected.taskletName()
                    + " output, but its trailer names tasklet " + id);
        }
        return new Trailer(expected, b.getLong(), b.getLong(), b.getLong());
    }

    /** A little-endian view of the items before the trailer of {@code output}. */
    static ByteBuffer items(byte[] output) {
        return ByteBuffer.wrap(output, 0, output.length - BYTES).slice()
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Checks that {@code n} decoded items are what the trailer announced. */
    void checkItems(long n) throws TaskletFailedException {
        if (n != itemsOut) {
            throw TaskletFailedException.incompleteOutput(tasklet.taskletName() + " output holds " + n
                    + " items but its trailer announces " + itemsOut);
        }
    }
}
