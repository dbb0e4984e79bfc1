package org.smartssd.device;

/**
 * The host's power draw, used to turn measured CPU time into joules where the machine has no
 * RAPL counters.
 *
 * <p>Defaults are from [Kang 2014, §6.5.3.3, Fig. 6.10, p. 83] (docs/REFERENCES.md): the whole
 * system idles at about 44 W and draws about 35 W more while the host versions of the log
 * analyzer compute (75–82 W in total). The host there is one 4-core i5-2500
 * ([Kang 2014, §6.5.1]), so the 35 W are taken to be reached with all 4 cores busy:
 * a job costs {@code idleWatts} for its wall time plus {@code busyWatts / cores} per CPU
 * second it used.
 *
 * <p>Override with system properties {@code smartssd.host.idleWatts},
 * {@code smartssd.host.busyWatts} and {@code smartssd.host.cores}, or the constructor.
 */
public record HostPowerProfile(double idleWatts, double busyWatts, int cores) {
    /** Kang Fig. 6.10: idle about 44 W, about +35 W busy, on 4 cores. */
    public static final HostPowerProfile KANG_2014 = new HostPowerProfile(44.0, 35.0, 4);

    public HostPowerProfile {
        if (!(idleWatts >= 0) || !(busyWatts >= 0) || cores <= 0) {
            throw new IllegalArgumentException("host power profile needs idle >= 0 W, busy >= 0 W"
                    + " and cores > 0, got " + idleWatts + " W, " + busyWatts + " W, " + cores);
        }
    }

    /** The Kang defaults, each overridden by its system property when set. */
    public static HostPowerProfile fromSystemProperties() {
        return new HostPowerProfile(
                doubleProperty("smartssd.host.idleWatts", KANG_2014.idleWatts),
                doubleProperty("smartssd.host.busyWatts", KANG_2014.busyWatts),
                (int) doubleProperty("smartssd.host.cores", KANG_2014.cores));
    }

    /** Joules of a job that ran {@code wallSeconds} and used {@code cpuSeconds} of CPU. */
    public double joules(double wallSeconds, double cpuSeconds) {
        return idleJoules(wallSeconds) + busyJoules(cpuSeconds);
    }

    public double idleJoules(double wallSeconds) {
        return idleWatts * wallSeconds;
    }

    public double busyJoules(double cpuSeconds) {
        return busyWatts * cpuSeconds / cores;
    }

    private static double doubleProperty(String name, double dflt) {
        String v = System.getProperty(name);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("system property " + name + "='" + v
                    + "' is not a number");
        }
    }
}
