package org.smartssd.scan;

import org.smartssd.device.EnergyReport;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.SolidStateCache.ScanRun;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.tasklet.BuiltinTasklet;
import org.smartssd.device.TaskletFailedException;
import org.smartssd.device.tasklet.Trailer;
import org.smartssd.fs.sscache.CachedFile;

/**
 * What a scan task did, summed over its parts: the drive's work, where the parts ran and
 * what they were estimated and modelled to cost, and the split of a cached part between the
 * drive and the host. Immutable; {@link ScanExecution} builds it, and each engine reports it
 * its own way (MapReduce counters, Spark task metrics).
 *
 * @param inputRecords the records the task's parts examined (drive and host)
 */
public record ScanStats(DeviceWork device, PlacementWork placement, CacheWork cache,
                        long inputRecords) {
    public static final ScanStats NONE = new ScanStats(DeviceWork.NONE, PlacementWork.NONE,
            CacheWork.NONE, 0);

    public ScanStats plus(ScanStats o) {
        return new ScanStats(device.plus(o.device), placement.plus(o.placement),
                cache.plus(o.cache), inputRecords + o.inputRecords);
    }

    ScanStats withPlacement(PlacementWork p) {
        return new ScanStats(device, placement.plus(p), cache, inputRecords);
    }

    /**
     * The drive's work: tasklet runs (over a range, or over a range's cached blocks), as the
     * drive counted them. Energies: {@code energyUj} and {@code energyNj} count a run only
     * where the drive models its energy ({@code energyNj} the run's share of the drive's,
     * unrounded); {@code reportedEnergyNj} is each run's reported device energy in nJ.
     * {@code linkBytes}, the energies and {@code polls} are only for runs over a range (a
     * scan of cached blocks reports none).
     *
     * @param bytesScanned the pages scanned times the page size
     * @param bytesRead    the bytes of records the tasklets read: a TEXT range's bytes, or
     *                     the records the output's trailer counts times the record size
     */
    public record DeviceWork(long runs, long pages, long bytesScanned, long records,
                             long outputBytes, long linkBytes, long timeNs, long instructions,
                             long dramAccesses, long energyUj, long energyNj,
                             long energyUnavailable, long hostEnergyUj, long hostEnergyMeasured,
                             long polls, long bytesRead, long reportedEnergyNj) {
        public static final DeviceWork NONE = new DeviceWork(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0);

        public DeviceWork plus(DeviceWork o) {
            return new DeviceWork(runs + o.runs, pages + o.pages,
                    bytesScanned + o.bytesScanned, records + o.records,
                    outputBytes + o.outputBytes, linkBytes + o.linkBytes, timeNs + o.timeNs,
                    instructions + o.instructions, dramAccesses + o.dramAccesses,
                    energyUj + o.energyUj, energyNj + o.energyNj,
                    energyUnavailable + o.energyUnavailable, hostEnergyUj + o.hostEnergyUj,
                    hostEnergyMeasured + o.hostEnergyMeasured, polls + o.polls,
                    bytesRead + o.bytesRead, reportedEnergyNj + o.reportedEnergyNj);
        }

        /** A finished run over {@code rangeLength} bytes of a file of {@code layout}. */
        static DeviceWork ofRun(TaskletRun run, RecordLayout layout, long rangeLength) {
            TaskletProgress p = run.last();
            byte[] out = run.output();
            EnergyReport e = run.energy();
            boolean modelled = e != null && e.deviceModelled() && !Double.isNaN(e.deviceJoules());
            return new DeviceWork(1, p.pagesDone(), p.pagesDone() * run.pageSize(), p.records(),
                    out.length, e == null ? out.length : e.linkBytes(), time(p),
                    p.instructions(), p.dramAccesses(),
                    modelled ? Math.round(e.deviceJoules() * 1e6) : 0,
                    modelled && run.energyShare() != null ? run.energyShare().taskNj() : 0,
                    modelled ? 0 : 1, e == null ? 0 : Math.round(e.hostJoules() * 1e6),
                    e != null && e.hostMeasured() ? 1 : 0, run.polls(),
                    layout.kind() == RecordLayout.Kind.TEXT ? rangeLength
                            : recordsIn(run.spec().taskletId(), out, p) * layout.recordSize(),
                    e == null || Double.isNaN(e.deviceJoules()) ? 0
                            : Math.round(e.deviceJoules() * 1e9));
        }

        /** A scan of a range's cached blocks that ran some. */
        static DeviceWork ofCachedScan(CachedFile.DriveScan scan, int taskletId,
                                       RecordLayout layout) {
            TaskletProgress p = scan.progress();
            byte[] out = scan.output();
            return new DeviceWork(1, p.pagesDone(), 0, p.records(), out.length, 0, time(p),
                    p.instructions(), p.dramAccesses(), 0, 0, 0, 0, 0, 0,
                    recordsIn(taskletId, out, p) * layout.recordSize(), 0);
        }

        private static long time(TaskletProgress p) {
            return Math.max(0, p.finishedNs() - p.startedNs());
        }

        /** The records a built-in tasklet's trailer says it read; another's (or an output
         *  without a trailer, which the engine's decoder refuses), the drive's count. */
        private static long recordsIn(int taskletId, byte[] out, TaskletProgress p) {
            for (BuiltinTasklet t : BuiltinTasklet.values()) {
                if (t.id() == taskletId) {
                    try {
                        return Trailer.of(out, t).recordsIn();
                    } catch (TaskletFailedException e) {
                        return p.records();
                    }
                }
            }
            return p.records();
        }
    }

    /**
     * Where placed parts ran: per side the parts, the planner's estimates and the modelled
     * times of what ran (device: counted work at the calibration's prices plus the output
     * over the link; host: the bytes over the link plus the host's rate), the host's bytes,
     * records and measured thread CPU time, and a drain's rounds and parts moved from the
     * plan's side.
     */
    public record PlacementWork(long onDevice, long estimatedDeviceNs, long modelledDeviceNs,
                                long onHost, long estimatedHostNs, long modelledHostNs,
                                long hostBytes, long hostRecords, long hostCpuNs,
                                long drainRounds, long movedByDrain) {
        public static final PlacementWork NONE = new PlacementWork(0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0);

        public PlacementWork plus(PlacementWork o) {
            return new PlacementWork(onDevice + o.onDevice,
                    estimatedDeviceNs + o.estimatedDeviceNs, modelledDeviceNs + o.modelledDeviceNs,
                    onHost + o.onHost, estimatedHostNs + o.estimatedHostNs,
                    modelledHostNs + o.modelledHostNs, hostBytes + o.hostBytes,
                    hostRecords + o.hostRecords, hostCpuNs + o.hostCpuNs,
                    drainRounds + o.drainRounds, movedByDrain + o.movedByDrain);
        }

        static PlacementWork device(long estimatedNs, long modelledNs) {
            return new PlacementWork(1, estimatedNs, modelledNs, 0, 0, 0, 0, 0, 0, 0, 0);
        }

        static PlacementWork host(long estimatedNs, long modelledNs, long bytes, long records,
                                  long cpuNs) {
            return new PlacementWork(0, 0, 0, 1, estimatedNs, modelledNs, bytes, records, cpuNs,
                    0, 0);
        }

        static PlacementWork drain(long rounds, long moved) {
            return new PlacementWork(0, 0, 0, 0, 0, 0, 0, 0, 0, rounds, moved);
        }
    }

    /**
     * Parts of {@code sscache://} files: the records the drive did over cached blocks and the
     * blocks it read, the records the host did (and the bytes it read for them), and the
     * scans stopped by a block of another version of the file.
     */
    public record CacheWork(long parts, long recordsInDrive, long blocksInDrive,
                            long recordsOnHost, long hostBytes, long staleScans) {
        public static final CacheWork NONE = new CacheWork(0, 0, 0, 0, 0, 0);

        public CacheWork plus(CacheWork o) {
            return new CacheWork(parts + o.parts, recordsInDrive + o.recordsInDrive,
                    blocksInDrive + o.blocksInDrive, recordsOnHost + o.recordsOnHost,
                    hostBytes + o.hostBytes, staleScans + o.staleScans);
        }

        static long blocks(java.util.List<ScanRun> runs) {
            return runs.stream().mapToLong(ScanRun::blocks).sum();
        }
    }
}
