package org.smartssd.device;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * RAPL energy counters under the Linux powercap tree ({@code /sys/class/powercap}). Only the
 * top-level zones ({@code intel-rapl:0}, {@code intel-rapl:1}, ...) are summed: their
 * subzones (core, uncore, dram as {@code intel-rapl:0:0}) and the MMIO copies of the package
 * zone would count the same joules twice. Each zone's {@code energy_uj} wraps at
 * {@code max_energy_range_uj}.
 */
public final class Rapl {
    public static final Path DEFAULT_ROOT = Path.of("/sys/class/powercap");
    private static final Pattern TOP_ZONE = Pattern.compile("[a-z-]*rapl:[0-9]+");

    /** One readable zone. */
    public record Zone(String id, String name, Path energyFile, long maxRangeUj) {
    }

    private final List<Zone> zones;

    private Rapl(List<Zone> zones) {
        this.zones = Collections.unmodifiableList(zones);
    }

    /** The readable top-level zones under {@code root}; none when it is absent (no RAPL). */
    public static Rapl scan(Path root) {
        List<Zone> zones = new ArrayList<>();
        if (Files.isDirectory(root)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(root)) {
                for (Path dir : ds) {
                    String id = dir.getFileName().toString();
                    if (!TOP_ZONE.matcher(id).matches() || id.contains("mmio")) {
                        continue;
                    }
                    Path energy = dir.resolve("energy_uj");
                    if (!Files.isReadable(energy) || readLong(energy) < 0) {
                        continue; // since Linux 5.10 energy_uj is root-only
                    }
                    long max = Files.exists(dir.resolve("max_energy_range_uj"))
                            ? readLong(dir.resolve("max_energy_range_uj")) : -1;
                    String name = Files.exists(dir.resolve("name"))
                            ? Files.readString(dir.resolve("name")).trim() : id;
                    zones.add(new Zone(id, name, energy, max));
                }
            } catch (IOException e) {
                zones.clear();
            }
        }
        zones.sort((a, b) -> a.id().compareTo(b.id()));
        return new Rapl(zones);
    }

    /** The zones of this machine. */
    public static Rapl system() {
        return scan(DEFAULT_ROOT);
    }

    public boolean present() {
        return !zones.isEmpty();
    }

    public List<Zone> zones() {
        return zones;
    }

    /** Current energy_uj of every zone, by zone id; zones that fail to read are left out. */
    public Map<String, Long> read() {
        Map<String, Long> m = new TreeMap<>();
        for (Zone z : zones) {
            long v = readLong(z.energyFile());
            if (v >= 0) {
                m.put(z.id(), v);
            }
        }
        return m;
    }

    /** Microjoules between two readings, summed over the zones present in both, allowing for
     *  one wrap per zone. */
    public long deltaMicroJoules(Map<String, Long> start, Map<String, Long> end) {
        long sum = 0;
        for (Zone z : zones) {
            Long a = start.get(z.id());
            Long b = end.get(z.id());
            if (a == null || b == null) {
                continue;
            }
            sum += delta(a, b, z.maxRangeUj());
        }
        return sum;
    }

    static long delta(long start, long end, long maxRange) {
        if (end >= start) {
            return end - start;
        }
        return maxRange > 0 ? maxRange - start + end : 0;
    }

    private static long readLong(Path p) {
        try {
            return Long.parseLong(Files.readString(p).trim());
        } catch (IOException | NumberFormatException | SecurityException e) {
            return -1;
        }
    }
}
