package org.smartssd.loganalyzer;

import org.smartssd.loganalyzer.model.ExecEnergy;
import org.smartssd.loganalyzer.spark.SparkQueries;

/**
 * One run of one version of a query over one file on the drive.
 *
 * @param answer        what it answered
 * @param wallNs        host wall-clock of the run (reported, never modelled)
 * @param modelled      false on a drive without a timing and energy model (a real drive):
 *                      the modelled figures are then 0 and the energy NaN
 * @param modelledNs    modelled time: link + host CPU model for host versions; ISP core +
 *                      link for the device version (see
 *                      {@link org.smartssd.loganalyzer.model.HostCostModel})
 * @param linkNs        the drive's modelled link busy time during the run
 * @param ispNs         the drive's modelled ISP core busy time during the run
 * @param hostCpuNs     the host CPU model's part of modelledNs
 * @param driveClockNs  how far the drive's own clock moved (includes flash time)
 * @param linkBytes     bytes over the host link, both ways, the drive's count
 * @param records       records the run examined
 * @param mapOutputs    map output records (host-normal: one per record)
 * @param energy        exec-phase energy
 * @param spark         the Spark engine's scan figures (the connector's metrics); null for
 *                      the MapReduce versions
 */
public record RunResult(Query query, Mode mode, int entrySize, Answer answer, long wallNs,
                        boolean modelled,
                        long modelledNs, long linkNs, long ispNs, long hostCpuNs,
                        long driveClockNs, long linkBytes, long records, long mapOutputs,
                        ExecEnergy energy, SparkQueries.Result spark) {
}
