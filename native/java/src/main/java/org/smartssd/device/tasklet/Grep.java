package org.smartssd.device.tasklet;

import org.smartssd.device.TaskletFailedException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.TaskletSpec;

/**
 * The grep / line-count tasklet (id 4), over TEXT layouts: counts lines and lines containing
 * a byte pattern (an empty pattern matches every line), and with {@link #lines} also returns
 * the matching lines. Counts of splits add up. Params: 4 bytes plus the pattern.
 */
public final class Grep {
    public static final int PARAMS_BYTES = 4;
    public static final int MAX_PATTERN = 1024;
    static final int FLAG_EMIT = 0x1;

    private final byte[] pattern;
    private final boolean emit;

    private Grep(byte[] pattern, boolean emit) {
        if (pattern.length > MAX_PATTERN) {
            throw new IllegalArgumentException("a grep pattern has at most " + MAX_PATTERN
                    + " bytes, got " + pattern.length);
        }
        this.pattern = pattern.clone();
        this.emit = emit;
    }

    /** Counts lines and the lines containing {@code pattern} (UTF-8). */
    public static Grep count(String pattern) {
        return new Grep(pattern.getBytes(StandardCharsets.UTF_8), false);
    }

    /** Counts, and returns the lines containing {@code pattern} (UTF-8). */
    public static Grep lines(String pattern) {
        return new Grep(pattern.getBytes(StandardCharsets.UTF_8), true);
    }

    public byte[] pattern() {
        return pattern.clone();
    }

    public boolean emitsLines() {
        return emit;
    }

    /** The params bytes ({@code struct ss_bt_grep_params} and the pattern). */
    public byte[] params() {
        return ByteBuffer.allocate(PARAMS_BYTES + pattern.length).order(ByteOrder.LITTLE_ENDIAN)
                .put((byte) (emit ? FLAG_EMIT : 0)).put((byte) 0)
                .putShort((short) pattern.length).put(pattern).array();
    }

    /**
     * The grep described by params bytes (the inverse of {@link #params()}).
     *
     * @throws IllegalArgumentException for bytes the drive would refuse
     */
    public static Grep parse(byte[] params) {
        if (params.length < PARAMS_BYTES) {
            throw new IllegalArgumentException("grep params are at least " + PARAMS_BYTES
                    + " bytes, got " + params.length);
        }
        ByteBuffer b = ByteBuffer.wrap(params).order(ByteOrder.LITTLE_ENDIAN);
        int flags = b.get() & 0xff;
        int reserved = b.get() & 0xff;
        int len = Short.toUnsignedInt(b.getShort());
        if ((flags & ~FLAG_EMIT) != 0 || reserved != 0) {
            throw new IllegalArgumentException("grep params: flags 0x"
                    + Integer.toHexString(flags) + ", reserved " + reserved + " not allowed");
        }
        if (params.length != PARAMS_BYTES + len) {
            throw new IllegalArgumentException("grep params with a " + len + "-byte pattern are "
                    + (PARAMS_BYTES + len) + " bytes, got " + params.length);
        }
        byte[] pattern = new byte[len];
        b.get(pattern);
        return new Grep(pattern, (flags & FLAG_EMIT) != 0);
    }

    /** The tasklet spec over a TEXT {@code layout}. */
    public TaskletSpec spec(RecordLayout layout, int memoryBudget, long stepLimit) {
        if (layout.kind() != RecordLayout.Kind.TEXT) {
            throw new IllegalArgumentException("grep runs over TEXT layouts only, got "
                    + layout);
        }
        return new TaskletSpec(BuiltinTasklet.GREP.id(), layout, params(), memoryBudget,
                stepLimit);
    }

    /** A decoded output: matching lines (without delimiter; empty unless emitted), counts. */
    public record Output(List<byte[]> matchingLines, Trailer trailer) {
        public long lines() {
            return trailer.recordsIn();
        }

        public long matches() {
            return trailer.aux();
        }
    }

    /** Decodes a grep output over {@code layout}. */
    public Output decode(byte[] output, RecordLayout layout) throws TaskletFailedException {
        Trailer t = Trailer.of(output, BuiltinTasklet.GREP);
        List<byte[]> lines = new ArrayList<>();
        Filter.splitLines(Trailer.items(output), (byte) layout.lineDelim(), lines);
        t.checkItems(lines.size());
        return new Output(List.copyOf(lines), t);
    }
}
