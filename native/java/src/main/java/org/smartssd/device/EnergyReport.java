package org.smartssd.device;

import java.util.Locale;

/**
 * Energy and link use of one job, host against device.
 *
 * <ul>
 *   <li>Device joules come from the drive's energy counters: modelled from counted operations
 *       on an emulated drive ({@code deviceModelled}); NaN on a real drive, which has none.</li>
 *   <li>Host joules are measured by RAPL where the machine exposes it
 *       ({@code hostMeasured}, {@link #raplJoules()}); otherwise modelled from the job's CPU
 *       time and wall time with the {@link HostPowerProfile}.</li>
 * </ul>
 *
 * @param deviceJoules     device energy over the job (NaN when unknown)
 * @param deviceModelled   true when deviceJoules comes from the emulator's model
 * @param device           the device energy by component (zeros when not modelled)
 * @param deviceTimeNs     modelled device time that passed during the job
 * @param linkBytes        bytes over the host link, both ways
 * @param wallSeconds      host wall time of the job
 * @param hostCpuSeconds   host CPU time of the job (JVM), the figure the model uses
 * @param procCpuSeconds   the same from /proc/self/stat (a cross-check; NaN without procfs)
 * @param hostIdleJoules   modelled: idle power times wall time
 * @param hostBusyJoules   modelled: busy power per core times CPU time
 * @param raplJoules       measured RAPL package energy (NaN when the machine has no RAPL)
 * @param hostMeasured     true when {@link #hostJoules()} is the RAPL measurement
 * @param profile          the host power profile of the model
 */
public record EnergyReport(double deviceJoules, boolean deviceModelled, DeviceEnergy device,
                           long deviceTimeNs, long linkBytes, double wallSeconds,
                           double hostCpuSeconds, double procCpuSeconds, double hostIdleJoules,
                           double hostBusyJoules, double raplJoules, boolean hostMeasured,
                           HostPowerProfile profile) {

    /** Device energy by component, joules. */
    public record DeviceEnergy(double nandRead, double nandProgram, double nandErase,
                               double link, double isp, double idle) {
        public static final DeviceEnergy NONE = new DeviceEnergy(0, 0, 0, 0, 0, 0);
    }

    /**
     * This report with the device energy replaced by the task's share of a drive it shared
     * with other tasks ({@link SharedDriveEnergy}): deviceJoules is the share (whole nJ,
     * exact), and the components are the period's, scaled by the share's fraction.
     */
    public EnergyReport withDeviceShare(SharedDriveEnergy.Share s) {
        double f = s.fraction();
        DeviceEnergy parts = new DeviceEnergy(
                f * (s.endNandReadNj() - s.startNandReadNj()) / 1e9,
                f * (s.endNandProgramNj() - s.startNandProgramNj()) / 1e9,
                f * (s.endNandEraseNj() - s.startNandEraseNj()) / 1e9,
                f * (s.endLinkNj() - s.startLinkNj()) / 1e9,
                f * (s.endIspNj() - s.startIspNj()) / 1e9,
                f * (s.endIdleNj() - s.startIdleNj()) / 1e9);
        return new EnergyReport(s.taskNj() / 1e9, true, parts, deviceTimeNs, linkBytes,
                wallSeconds, hostCpuSeconds, procCpuSeconds, hostIdleJoules, hostBusyJoules,
                raplJoules, hostMeasured, profile);
    }

    /** Host energy of the model: idle plus busy. */
    public double hostModelJoules() {
        return hostIdleJoules + hostBusyJoules;
    }

    /** Host energy: RAPL when measured, the model otherwise. */
    public double hostJoules() {
        return hostMeasured ? raplJoules : hostModelJoules();
    }

    /** Host plus device joules (the device counted as 0 when unknown). */
    public double totalJoules() {
        return hostJoules() + (Double.isNaN(deviceJoules) ? 0 : deviceJoules);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT,
                "device %.6f J (%s), host %.6f J (%s; cpu %.3f s, wall %.3f s), link %d bytes, "
                        + "device time %.6f s",
                deviceJoules, deviceModelled ? "modelled" : "unknown", hostJoules(),
                hostMeasured ? "measured by RAPL" : "modelled from CPU time", hostCpuSeconds,
                wallSeconds, linkBytes, deviceTimeNs / 1e9);
    }
}
