package org.smartssd.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time of this process from Linux procfs ({@code /proc/self/stat}). */
final class ProcStat {
    static final Path SELF_STAT = Path.of("/proc/self/stat");
    static final Path SELF_AUXV = Path.of("/proc/self/auxv");
    private static final long AT_CLKTCK = 17;
    private static final long AT_NULL = 0;

    private ProcStat() {
    }

    /**
     * utime + stime in clock ticks from the text of a {@code /proc/PID/stat} file. The command
     * name (field 2) is in parentheses and may hold spaces or ')', so fields are counted from
     * the last ')'. Returns ticks, or -1 when the text is not a stat line.
     */
    static long cpuTicks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return -1;
        }
        String[] f = stat.substring(close + 1).trim().split("\\s+");
        // f[0] is field 3 (state); utime is field 14, stime field 15
        if (f.length < 13) {
            return -1;
        }
        try {
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Clock ticks per second from an auxiliary vector (AT_CLKTCK), -1 when absent. */
    static long clockTicks(byte[] auxv) {
        ByteBuffer b = ByteBuffer.wrap(auxv).order(ByteOrder.nativeOrder());
        while (b.remaining() >= 16) {
            long type = b.getLong();
            long val = b.getLong();
            if (type == AT_CLKTCK) {
                return val;
            }
            if (type == AT_NULL) {
                break;
            }
        }
        return -1;
    }

    /** This process's CPU time in ns from /proc/self/stat, or -1 without procfs. */
    static long selfCpuNanos() {
        try {
            long ticks = cpuTicks(Files.readString(SELF_STAT));
            long hz = clockTicks(Files.readAllBytes(SELF_AUXV));
            if (ticks < 0) {
                return -1;
            }
            return ticks * 1_000_000_000L / (hz > 0 ? hz : 100);
        } catch (IOException | SecurityException e) {
            return -1;
        }
    }
}
