package org.smartssd.loganalyzer.model;

import org.smartssd.device.HostPowerProfile;

/**
 * Energy of a run's exec phase ([Kang 2014, §6.5.3.3, Fig. 6.10, p. 83]), from modelled time
 * and the drive's counters, never from wall-clock:
 * <ul>
 *   <li>host: the system's idle power for the whole modelled time, plus its busy power for a
 *       host version (the host computes the whole time; Kang measured about +35 W for the
 *       host versions, all cores counted together);</li>
 *   <li>device: what the drive's energy model charged for the run's active work: ISP core,
 *       NAND reads and link transfer. The drive's idle power is part of the system's idle
 *       power (profile device_idle_mw).</li>
 * </ul>
 *
 * @param hostJoules   host system energy
 * @param deviceJoules drive energy beyond idle
 */
public record ExecEnergy(double hostJoules, double deviceJoules) {
    /** The exec phase of a host version that took {@code modelledNs}. */
    public static ExecEnergy hostVersion(HostPowerProfile p, long modelledNs,
                                         double deviceJoules) {
        return new ExecEnergy((p.idleWatts() + p.busyWatts()) * modelledNs / 1e9, deviceJoules);
    }

    /** The exec phase of the device version: the host idles while the drive works. */
    public static ExecEnergy deviceVersion(HostPowerProfile p, long modelledNs,
                                           double deviceJoules) {
        return new ExecEnergy(p.idleWatts() * modelledNs / 1e9, deviceJoules);
    }

    public double totalJoules() {
        return hostJoules + deviceJoules;
    }
}
