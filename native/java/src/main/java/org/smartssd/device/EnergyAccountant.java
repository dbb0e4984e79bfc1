package org.smartssd.device;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.Optional;

/**
 * Accounts the energy of a job run against one drive: {@link #begin()} before it,
 * {@link Measurement#end()} after it. Device figures come from the drive's counters (modelled
 * energy and time on an emulated drive); host figures from the job's CPU time, read from the
 * JVM and cross-checked against /proc/self/stat, times the {@link HostPowerProfile}, or from
 * RAPL where the machine has it (reported as measured).
 */
public final class EnergyAccountant {
    /** Whose CPU time counts as the job's. */
    public enum Scope {
        /** The whole JVM process: right when the process runs one job. */
        PROCESS,
        /** Only the thread that called begin(): right for jobs sharing a JVM. */
        THREAD
    }

    /** A point-in-time reading of everything the report is computed from. */
    record Sample(long wallNanos, long cpuNanos, long procCpuNanos, Map<String, Long> raplUj,
                  ModelCounters model, long hostLinkBytes) {
    }

    private final SmartSsdDevice device;
    private final HostPowerProfile profile;
    private final Rapl rapl;
    private final Scope scope;

    public EnergyAccountant(SmartSsdDevice device, HostPowerProfile profile) {
        this(device, profile, Rapl.system(), Scope.PROCESS);
    }

    public EnergyAccountant(SmartSsdDevice device, HostPowerProfile profile, Rapl rapl,
                            Scope scope) {
        this.device = device;
        this.profile = profile;
        this.rapl = rapl;
        this.scope = scope;
    }

    public HostPowerProfile profile() {
        return profile;
    }

    /** Starts measuring. */
    public Measurement begin() throws IOException {
        long thread = Thread.currentThread().getId();
        return new Measurement(thread, sample(thread));
    }

    /** A running measurement. */
    public final class Measurement {
        private final long thread;
        private final Sample start;

        private Measurement(long thread, Sample start) {
            this.thread = thread;
            this.start = start;
        }

        /** Stops measuring. May be called more than once; each report covers begin..now. */
        public EnergyReport end() throws IOException {
            return compute(start, sample(thread), profile, rapl);
        }
    }

    private Sample sample(long thread) throws IOException {
        Optional<ModelCounters> model = device.modelCounters();
        return new Sample(System.nanoTime(), cpuNanos(thread), ProcStat.selfCpuNanos(),
                rapl.read(), model.orElse(null), device.bytesToDrive() + device.bytesFromDrive());
    }

    private long cpuNanos(long thread) {
        if (scope == Scope.THREAD) {
            ThreadMXBean tb = ManagementFactory.getThreadMXBean();
            if (tb.isThreadCpuTimeSupported()) {
                return tb.getThreadCpuTime(thread);
            }
        } else {
            java.lang.management.OperatingSystemMXBean os =
                    ManagementFactory.getOperatingSystemMXBean();
            if (os instanceof com.sun.management.OperatingSystemMXBean) {
                long t = ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
                if (t >= 0) {
                    return t;
                }
            }
        }
        return ProcStat.selfCpuNanos();
    }

    /**
     * The report between two samples. Pure: unit-tested against hand-computed values.
     * Link bytes come from the drive's model when it has one (it sees every command of every
     * process), else from this host's own count.
     */
    static EnergyReport compute(Sample a, Sample b, HostPowerProfile profile, Rapl rapl) {
        double wall = (b.wallNanos() - a.wallNanos()) / 1e9;
        double cpu = Math.max(0, b.cpuNanos() - a.cpuNanos()) / 1e9;
        double proc = a.procCpuNanos() < 0 || b.procCpuNanos() < 0 ? Double.NaN
                : (b.procCpuNanos() - a.procCpuNanos()) / 1e9;
        double deviceJ = Double.NaN;
        EnergyReport.DeviceEnergy parts = EnergyReport.DeviceEnergy.NONE;
        long deviceNs = 0;
        long link = b.hostLinkBytes() - a.hostLinkBytes();
        boolean modelled = a.model() != null && b.model() != null;
        if (modelled) {
            ModelCounters x = a.model();
            ModelCounters y = b.model();
            deviceJ = nj(y.energyTotalNj() - x.energyTotalNj());
            parts = new EnergyReport.DeviceEnergy(nj(y.energyNandReadNj() - x.energyNandReadNj()),
                    nj(y.energyNandProgramNj() - x.energyNandProgramNj()),
                    nj(y.energyNandEraseNj() - x.energyNandEraseNj()),
                    nj(y.energyLinkNj() - x.energyLinkNj()),
                    nj(y.energyIspNj() - x.energyIspNj()),
                    nj(y.energyIdleNj() - x.energyIdleNj()));
            deviceNs = y.nowNs() - x.nowNs();
            link = (y.linkBytesIn() + y.linkBytesOut()) - (x.linkBytesIn() + x.linkBytesOut());
        }
        boolean measured = rapl.present() && !a.raplUj().isEmpty() && !b.raplUj().isEmpty();
        double raplJ = measured ? rapl.deltaMicroJoules(a.raplUj(), b.raplUj()) / 1e6 : Double.NaN;
        return new EnergyReport(deviceJ, modelled, parts, deviceNs, link, wall, cpu, proc,
                profile.idleJoules(wall), profile.busyJoules(cpu), raplJ, measured, profile);
    }

    private static double nj(long v) {
        return v / 1e9;
    }
}
