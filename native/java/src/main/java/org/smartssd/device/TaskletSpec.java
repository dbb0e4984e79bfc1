package org.smartssd.device;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * What a tasklet instance is created from: the tasklet's id in the drive's registry, the
 * record layout of its input, its static parameters (the tasklet's own binary format, see
 * builtin_tasklets.h), its memory budget in bytes and its step limit (0: the drive's default).
 */
public record TaskletSpec(int taskletId, RecordLayout layout, byte[] params, int memoryBudget,
                          long stepLimit) {
    public TaskletSpec {
        Objects.requireNonNull(layout, "layout");
        params = params == null ? new byte[0] : params.clone();
        if (memoryBudget < 0) {
            throw new IllegalArgumentException("memory budget " + memoryBudget + " is negative");
        }
        if (stepLimit < 0) {
            throw new IllegalArgumentException("step limit " + stepLimit + " is negative");
        }
    }

    @Override
    public byte[] params() {
        return params.clone();
    }

    int paramsLength() {
        return params.length;
    }

    byte[] paramsUnsafe() {
        return params;
    }

    /**
     * Writes the spec as native-order 8-byte slots for the JNI layer (jni_tasklet_ops.c):
     * id, budget, step limit, output oid, kind, line delimiter, field separator, field count,
     * record size, then from slot {@code fieldsSlot} six per field (offset, type, width,
     * shift, bits, null bit).
     */
    void encode(long outputOid, ByteBuffer out, int fieldsSlot) {
        long[] head = {taskletId & 0xffffffffL, memoryBudget, stepLimit, outputOid,
            layout.kind().code, layout.lineDelim(), layout.fieldSep(), layout.fields().size(),
            layout.recordSize()};
        for (int i = 0; i < head.length; i++) {
            out.putLong(i * 8, head[i]);
        }
        int at = fieldsSlot * 8;
        for (RecordLayout.Field f : layout.fields()) {
            out.putLong(at, f.offset()).putLong(at + 8, f.type().code).putLong(at + 16, f.width())
                    .putLong(at + 24, f.shift()).putLong(at + 32, f.bits())
                    .putLong(at + 40, f.nullBit());
            at += 48;
        }
    }
}
