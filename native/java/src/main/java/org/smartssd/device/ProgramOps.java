package org.smartssd.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The eBPF tasklet programs of {@link SmartSsdDevice} (PROTOCOL.md 4.7): load (the drive
 * verifies), list, remove. Running one is a tasklet like any other, see
 * {@link SmartSsdDevice#runProgram}.
 */
final class ProgramOps {
    /** Bytes of a name, of [A-Za-z0-9._-]. */
    static final int NAME_MAX = 63;
    static final int PROGRAMS_MAX = 64;
    static final int ELF_MAX = 256 * 1024;
    // ss_wire_program, as the JNI writes each entry into the scratch buffer
    static final int ENTRY_BYTES = 80;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1," + NAME_MAX + "}");

    private final DeviceSession s;

    ProgramOps(DeviceSession s) {
        this.s = s;
    }

    static String checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("program name '" + name + "': 1 to " + NAME_MAX
                    + " characters of [A-Za-z0-9._-]");
        }
        return name;
    }

    int load(String name, byte[] elf, boolean replace) throws IOException {
        checkName(name);
        if (elf.length == 0 || elf.length > ELF_MAX) {
            throw new IllegalArgumentException("program " + name + ": an object of "
                    + elf.length + " bytes (1 to " + ELF_MAX + ")");
        }
        ByteBuffer buf = ByteBuffer.allocateDirect(elf.length);
        buf.put(elf);
        byte[] n = DeviceSession.path(name);
        long insns = s.withHandle(h -> s.check(SmartSsdNative.programLoad0(h, n, buf,
                elf.length, replace ? 1 : 0), "load program", name));
        return (int) insns;
    }

    List<LoadedProgram> list() throws IOException {
        return s.withScratch((h, out) -> {
            int n = (int) s.check(SmartSsdNative.programList0(h, out), "list programs");
            ByteBuffer b = out.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            List<LoadedProgram> all = new ArrayList<>(n);
            for (int i = 0; i < n && i < PROGRAMS_MAX; i++) {
                int at = i * ENTRY_BYTES;
                int len = Short.toUnsignedInt(b.getShort(at + 4));
                byte[] name = new byte[Math.min(len, NAME_MAX)];
                b.get(at + 16, name);
                long ns = b.getLong(at + 8);
                all.add(new LoadedProgram(new String(name, StandardCharsets.US_ASCII),
                        b.getInt(at), Instant.ofEpochSecond(0, ns)));
            }
            return all;
        });
    }

    /** @throws NoSuchObjectException when the drive has no program of that name */
    void remove(String name) throws IOException {
        checkName(name);
        byte[] n = DeviceSession.path(name);
        try {
            s.withHandle(h -> s.check(SmartSsdNative.programRemove0(h, n), "remove program",
                    name));
        } catch (TaskletFailedException e) {
            // the drive says UNKNOWN_TASKLET: for a program by name, that is "not found"
            if (e.failure() != TaskletFailedException.Failure.UNKNOWN_TASKLET) {
                throw e;
            }
            NoSuchObjectException nf = new NoSuchObjectException(e.getMessage(), e.errno(),
                    e.reason().code());
            nf.initCause(e);
            throw nf;
        }
    }
}
