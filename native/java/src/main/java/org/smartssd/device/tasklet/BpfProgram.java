package org.smartssd.device.tasklet;

import org.smartssd.device.TaskletFailedException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import org.smartssd.device.InputRange;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TaskletSpec;

/**
 * A run of an eBPF program loaded on the drive ({@code SmartSsdDevice.loadProgram}), the
 * "bpf" tasklet (id 7, {@code struct ss_bt_bpf_params} of builtin_tasklets.h): the program's
 * name, the six arguments its context carries, the size of its output buffer, the slots of
 * its group table (0 or a power of two), the entries of its top-N heap, and the
 * instructions it may interpret per record (0: its length). The drive verifies the program
 * against the run's layout before it runs (docs/tasklets.md).
 */
public record BpfProgram(String name, long[] args, int outSize, int groupSlots, int topN,
                         int insnBudget) {
    public static final int PARAMS_BYTES = 136;
    public static final int MAX_OUT = 4096;
    public static final int MAX_GROUP_SLOTS = 65536;
    public static final int MAX_TOP_N = 1024;
    /** What an instance needs beside its tables: the program, the verifier's workspace. */
    public static final int BASE_BUDGET = 160 * 1024;
    static final int GROUP_BYTES = 40;
    static final int TOP_BYTES = 16;
    static final int SUMMARY_BYTES = 32;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,63}");

    public BpfProgram {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("program name '" + name
                    + "': 1 to 63 characters of [A-Za-z0-9._-]");
        }
        args = args == null ? new long[6] : Arrays.copyOf(args, 6);
        if (outSize < 0 || outSize > MAX_OUT) {
            throw new IllegalArgumentException("output buffer of " + outSize + " bytes (0.."
                    + MAX_OUT + ")");
        }
        if (groupSlots < 0 || groupSlots > MAX_GROUP_SLOTS || Integer.bitCount(groupSlots) > 1) {
            throw new IllegalArgumentException("group slots " + groupSlots
                    + ": 0 or a power of two up to " + MAX_GROUP_SLOTS);
        }
        if (topN < 0 || topN > MAX_TOP_N) {
            throw new IllegalArgumentException("top-N of " + topN + " (0.." + MAX_TOP_N + ")");
        }
        if (insnBudget < 0) {
            throw new IllegalArgumentException("instruction budget " + insnBudget);
        }
    }

    /** A run with these arguments and no tables. */
    public static BpfProgram of(String name, long... args) {
        if (args.length > 6) {
            throw new IllegalArgumentException(args.length + " arguments: a program takes 6");
        }
        return new BpfProgram(name, args, 0, 0, 0, 0);
    }

    @Override
    public long[] args() {
        return args.clone();
    }

    /** The params bytes ({@code struct ss_bt_bpf_params}). */
    public byte[] params() {
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(PARAMS_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) n.length).position(8);
        b.put(n).position(72);
        for (long a : args) {
            b.putLong(a);
        }
        return b.putInt(outSize).putInt(groupSlots).putInt(topN).putInt(insnBudget).array();
    }

    /**
     * The program a spec runs: its name when the spec is of the bpf tasklet, else null.
     *
     * @throws IllegalArgumentException when the bpf params are malformed
     */
    public static String nameIn(TaskletSpec spec) {
        if (spec.taskletId() != BuiltinTasklet.BPF.id()) {
            return null;
        }
        return parse(spec.params()).name();
    }

    /**
     * The run {@link #params()} describes.
     *
     * @throws IllegalArgumentException when they are not {@value #PARAMS_BYTES} bytes of a
     *                                  valid run
     */
    public static BpfProgram parse(byte[] params) {
        if (params.length != PARAMS_BYTES) {
            throw new IllegalArgumentException("bpf params of " + params.length + " bytes, not "
                    + PARAMS_BYTES);
        }
        ByteBuffer b = ByteBuffer.wrap(params).order(ByteOrder.LITTLE_ENDIAN);
        int len = params[0] & 0xff;
        if (len > 63) {
            throw new IllegalArgumentException("bpf params name a program of " + len
                    + " characters");
        }
        String name = new String(params, 8, len, StandardCharsets.US_ASCII);
        long[] args = new long[6];
        for (int i = 0; i < 6; i++) {
            args[i] = b.getLong(72 + 8 * i);
        }
        return new BpfProgram(name, args, b.getInt(120), b.getInt(124), b.getInt(128),
                b.getInt(132));
    }

    /** The memory an instance needs: the base, the tables and the output buffer. */
    public int memoryBudget() {
        return BASE_BUDGET + groupSlots * GROUP_BYTES + topN * TOP_BYTES + outSize;
    }

    /** The tasklet spec over records of {@code layout}. */
    public TaskletSpec spec(RecordLayout layout, long stepLimit) {
        return new TaskletSpec(BuiltinTasklet.BPF.id(), layout, params(), memoryBudget(),
                stepLimit);
    }

    /**
     * Runs this on {@code drive} over bytes [offset, offset + length) of object {@code oid}
     * ({@link InputRange#TO_END} for the rest), its records cut by {@code layout}, and
     * returns the decoded output. The output object {@code outputPath} is made for the run
     * and removed after it.
     *
     * @throws org.smartssd.device.SmartSsdException of reason {@code PROGRAM_REFUSED} when the program does not verify
     *                                                     for this layout
     * @throws org.smartssd.device.TaskletFailedException  when the run fails (its budget, a
     *                                                     fault)
     */
    public Output run(SmartSsdDevice drive, RecordLayout layout, long oid, long offset,
                      long length, String outputPath, Duration timeout) throws IOException {
        long out = drive.createOutput(outputPath);
        try {
            long instance = drive.createTasklet(spec(layout, 0), out);
            try {
                drive.execute(instance, List.of(new InputRange(oid, offset, length)));
                drive.await(instance, timeout, null);
                return decode(drive.readAllOutput(instance));
            } finally {
                drive.destroy(instance);
            }
        } finally {
            drive.remove(outputPath, false);
        }
    }

    /** One group of the program's table: COUNT, SUM (modulo 2^64), MIN and MAX, signed. */
    public record Group(long key, long sum, long count, long min, long max) {
    }

    /** One entry of the top-N heap. */
    public record Top(long score, long value) {
    }

    /**
     * A decoded output: the bytes the program emitted, its output buffer, its groups (in no
     * order), its top-N entries (in no order), and the trailer (records_in, items_out =
     * groups + entries, aux = interpreted instructions).
     */
    public record Output(byte[] emitted, byte[] out, List<Group> groups, List<Top> top,
                         int programInstructions, Trailer trailer) {
        public long records() {
            return trailer.recordsIn();
        }

        public long interpretedInstructions() {
            return trailer.aux();
        }
    }

    public static Output decode(byte[] output) throws TaskletFailedException {
        Trailer t = Trailer.of(output, BuiltinTasklet.BPF);
        if (output.length < Trailer.BYTES + SUMMARY_BYTES) {
            throw TaskletFailedException.incompleteOutput("bpf output of " + output.length
                    + " bytes has no summary before its trailer");
        }
        ByteBuffer b = ByteBuffer.wrap(output).order(ByteOrder.LITTLE_ENDIAN);
        int sum = output.length - Trailer.BYTES - SUMMARY_BYTES;
        long emitted = b.getLong(sum);
        int outSize = b.getInt(sum + 8);
        int groups = b.getInt(sum + 12);
        int top = b.getInt(sum + 16);
        int insns = b.getInt(sum + 20);
        long tables = (long) groups * GROUP_BYTES + (long) top * TOP_BYTES;
        if (emitted < 0 || emitted + outSize + tables != sum) {
            throw TaskletFailedException.incompleteOutput("bpf output of " + output.length + " bytes: "
                    + emitted + " emitted, " + outSize + " of output buffer, " + groups
                    + " groups and " + top + " top entries do not add up");
        }
        t.checkItems((long) groups + top);
        int at = (int) emitted;
        byte[] out = Arrays.copyOfRange(output, at, at + outSize);
        at += outSize;
        List<Group> gs = new ArrayList<>(groups);
        for (int i = 0; i < groups; i++, at += GROUP_BYTES) {
            gs.add(new Group(b.getLong(at), b.getLong(at + 8), b.getLong(at + 16),
                    b.getLong(at + 24), b.getLong(at + 32)));
        }
        List<Top> ts = new ArrayList<>(top);
        for (int i = 0; i < top; i++, at += TOP_BYTES) {
            ts.add(new Top(b.getLong(at), b.getLong(at + 8)));
        }
        return new Output(Arrays.copyOf(output, (int) emitted), out, gs, ts, insns, t);
    }
}
