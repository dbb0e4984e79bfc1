package org.smartssd.benchmarks.kang;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The machine-wide CPU time line of {@code /proc/stat} (all cores together, in clock
 * ticks), for Kang Fig. 6.9's user / system / idle split around one run.
 *
 * @param user   user + nice
 * @param system system + irq + softirq
 * @param idle   idle + iowait (Kang counts I/O waits as idle)
 */
public record ProcStat(long user, long system, long idle) {
    private static final Path STAT = Path.of("/proc/stat");

    /** True where /proc/stat exists (Linux). */
    public static boolean available() {
        return Files.isReadable(STAT);
    }

    /** The current totals. */
    public static ProcStat read() throws IOException {
        List<String> lines = Files.readAllLines(STAT);
        for (String l : lines) {
            if (l.startsWith("cpu ")) {
                String[] f = l.trim().split("\\s+");
                if (f.length < 8) {
                    throw new IOException("/proc/stat: cpu line has " + (f.length - 1)
                            + " fields, expected at least 7: " + l);
                }
                long[] v = new long[f.length];
                for (int i = 1; i < f.length; i++) {
                    v[i] = Long.parseLong(f[i]);
                }
                return new ProcStat(v[1] + v[2], v[3] + v[6] + v[7], v[4] + v[5]);
            }
        }
        throw new IOException("/proc/stat has no 'cpu ' line");
    }

    /** What happened between {@code before} and this. */
    public ProcStat minus(ProcStat before) {
        return new ProcStat(user - before.user, system - before.system, idle - before.idle);
    }

    public long total() {
        return user + system + idle;
    }
}
