package org.smartssd.mapreduce;

import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;
import org.smartssd.scan.ScanStats;

/**
 * A map task's scan ({@link ScanStats}) in the job's counters: {@link DeviceCounters},
 * {@link PlacementCounters}, {@link CacheScanCounters} and MAP_INPUT_RECORDS (the records
 * the drive and the host examined, not the drive's progress polls), and so in this process's
 * {@link DeviceJobMetrics}. A counter nothing added to is left out, as before any scan ran.
 */
final class MapTaskCounters {
    private MapTaskCounters() {
    }

    static void add(TaskInputOutputContext<?, ?, ?, ?> c, ScanStats s, int recordSize) {
        ScanStats.DeviceWork d = s.device();
        inc(c, DeviceCounters.TASKLET_RUNS, d.runs());
        inc(c, DeviceCounters.PAGES_SCANNED, d.pages());
        inc(c, DeviceCounters.BYTES_SCANNED, d.bytesScanned());
        inc(c, DeviceCounters.RECORDS_SCANNED, d.records());
        inc(c, DeviceCounters.OUTPUT_BYTES, d.outputBytes());
        inc(c, DeviceCounters.LINK_BYTES, d.linkBytes());
        inc(c, DeviceCounters.DEVICE_TIME_NS, d.timeNs());
        inc(c, DeviceCounters.DEVICE_INSTRUCTIONS, d.instructions());
        inc(c, DeviceCounters.DEVICE_DRAM_ACCESSES, d.dramAccesses());
        inc(c, DeviceCounters.DEVICE_ENERGY_UJ, d.energyUj());
        inc(c, DeviceCounters.DEVICE_ENERGY_NJ, d.energyNj());
        inc(c, DeviceCounters.DEVICE_ENERGY_UNAVAILABLE, d.energyUnavailable());
        inc(c, DeviceCounters.HOST_ENERGY_UJ, d.hostEnergyUj());
        inc(c, DeviceCounters.HOST_ENERGY_MEASURED, d.hostEnergyMeasured());
        inc(c, DeviceCounters.PROGRESS_POLLS, d.polls());

        ScanStats.PlacementWork p = s.placement();
        inc(c, PlacementCounters.SPLITS_ON_DEVICE, p.onDevice());
        inc(c, PlacementCounters.ESTIMATED_DEVICE_NS, p.estimatedDeviceNs());
        inc(c, PlacementCounters.MODELLED_DEVICE_NS, p.modelledDeviceNs());
        inc(c, PlacementCounters.SPLITS_ON_HOST, p.onHost());
        inc(c, PlacementCounters.ESTIMATED_HOST_NS, p.estimatedHostNs());
        inc(c, PlacementCounters.MODELLED_HOST_NS, p.modelledHostNs());
        inc(c, PlacementCounters.HOST_BYTES_READ, p.hostBytes());
        inc(c, PlacementCounters.HOST_RECORDS, p.hostRecords());
        inc(c, PlacementCounters.HOST_CPU_NS, p.hostCpuNs());
        inc(c, PlacementCounters.DRAIN_ROUNDS, p.drainRounds());
        inc(c, PlacementCounters.SPLITS_MOVED_BY_DRAIN, p.movedByDrain());

        ScanStats.CacheWork k = s.cache();
        inc(c, CacheScanCounters.CACHED_SPLITS, k.parts());
        inc(c, CacheScanCounters.RECORDS_IN_DRIVE, k.recordsInDrive());
        inc(c, CacheScanCounters.BYTES_IN_DRIVE, k.recordsInDrive() * recordSize);
        inc(c, CacheScanCounters.BLOCKS_READ_IN_DRIVE, k.blocksInDrive());
        inc(c, CacheScanCounters.RECORDS_ON_HOST, k.recordsOnHost());
        inc(c, CacheScanCounters.BYTES_ON_HOST, k.recordsOnHost() * recordSize);
        inc(c, CacheScanCounters.STALE_SCANS, k.staleScans());
        if (s.inputRecords() != 0) {
            c.getCounter(TaskCounter.MAP_INPUT_RECORDS).setValue(s.inputRecords());
        }
    }

    private static void inc(TaskInputOutputContext<?, ?, ?, ?> c, Enum<?> counter, long v) {
        DeviceJobMetrics.increment(c, counter, v);
    }
}
