package org.smartssd.mapreduce;

/**
 * Counters of a device job, group {@code org.smartssd.mapreduce.DeviceCounters}, summed over
 * its map tasks (each task measures its own tasklet run). Energies are in
 * <b>microjoules</b>, times in nanoseconds of modelled device time.
 */
public enum DeviceCounters {
    /** Tasklet runs (one per split; over Parquet, the parquet-scan runs made). */
    TASKLET_RUNS,
    /** Flash pages the tasklets scanned, as the drive reports them. */
    PAGES_SCANNED,
    /** Bytes of those pages (pages scanned times the drive's page size). */
    BYTES_SCANNED,
    /** Records (lines) the tasklets examined. */
    RECORDS_SCANNED,
    /** Bytes of tasklet output read back over the link. */
    OUTPUT_BYTES,
    /** Bytes over the host link during the tasklet runs, both ways (the drive's count when
     *  it has a model, else this host's). */
    LINK_BYTES,
    /** Modelled device time of the tasklet runs (finish minus start, drive clock). */
    DEVICE_TIME_NS,
    /** ISP instructions and DRAM accesses the drive counted for the runs. */
    DEVICE_INSTRUCTIONS,
    DEVICE_DRAM_ACCESSES,
    /** Device energy of the runs, from the drive's energy model (0 when it has none): each
     *  run's share of the drive's energy over the runs overlapping it on the drive, by their
     *  counted work (SharedDriveEnergy), rounded to whole microjoules per run. */
    DEVICE_ENERGY_UJ,
    /** The same in nanojoules, unrounded: over runs that shared a drive in one JVM, the sum
     *  is the drive's energy over their period exactly. */
    DEVICE_ENERGY_NJ,
    /** Host energy of the map tasks: RAPL, or modelled from CPU and wall time. */
    HOST_ENERGY_UJ,
    /** Runs whose drive reported no energy model (a real drive, or a transport without the
     *  model counters): their DEVICE_ENERGY_UJ is 0, not measured. */
    DEVICE_ENERGY_UNAVAILABLE,
    /** Runs whose host energy was measured by RAPL rather than modelled. */
    HOST_ENERGY_MEASURED,
    /** Polls of tasklet progress. */
    PROGRESS_POLLS,
    /** Parquet inputs: row groups read on the host because the drive refused their run
     *  (a codec, encoding or page it does not decode, no room for the row group). */
    HOST_ROW_GROUPS,
    /** Parquet inputs: rows parquet-mr read on the host for those row groups. */
    HOST_ROWS_READ
}
