package org.smartssd.spark;

import java.util.Locale;

import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.smartssd.scan.ScanStats;

/**
 * The scan's metrics in the SQL tab: bytes the drive scanned for its tasklets, bytes over
 * the host link, modelled device time and modelled device energy. Device time and energy
 * come from the drive's model (an emulated drive's counted operations), never from host
 * clocks; concurrent tasks on one drive each count the drive's energy over their run.
 *
 * <p>A placed scan ({@link PartitionPlacement}) also counts the partitions run on each side
 * and, beside the planner's estimate for the side each ran on, the modelled time of what ran
 * (as smartssd-mapreduce's {@code PlacementCounters}): device, the run's counted work priced
 * by the calibration plus its output over the link; host, the bytes read over the link plus
 * the host's calibrated rate. {@code hostCpuNs} is the host version's measured thread CPU
 * time, for comparison only. A scan of an {@code sscache://} file counts the records (and
 * bytes) done in the drive over cached blocks and those done on the host. A scan drained
 * at run time ({@link NodeDrainPartition}) counts its rounds and the partitions that ran on
 * the other side than the plan's.
 */
final class DriveMetrics {
    static final String SCANNED = "driveBytesScanned";
    static final String LINK = "linkBytes";
    static final String TIME = "deviceTimeNs";
    static final String ENERGY = "deviceEnergyNj";
    static final String ON_DEVICE = "partitionsOnDevice";
    static final String ON_HOST = "partitionsOnHost";
    static final String EST_DEVICE = "estimatedDeviceNs";
    static final String MODELLED_DEVICE = "modelledDeviceNs";
    static final String EST_HOST = "estimatedHostNs";
    static final String MODELLED_HOST = "modelledHostNs";
    static final String HOST_CPU = "hostCpuNs";
    static final String CACHE_DRIVE_RECORDS = "cachedRecordsInDrive";
    static final String CACHE_DRIVE_BYTES = "cachedBytesInDrive";
    static final String CACHE_HOST_RECORDS = "cachedRecordsOnHost";
    static final String CACHE_HOST_BYTES = "cachedBytesOnHost";
    static final String DRAIN_ROUNDS = "drainRounds";
    static final String DRAIN_MOVED = "partitionsMovedByDrain";
    static final String PARQUET_HOST_CPU = "modelledHostCpuNs";

    private DriveMetrics() {
    }

    static CustomMetric[] all() {
        return new CustomMetric[] {new Scanned(), new Link(), new Time(), new Energy(),
            new OnDevice(), new OnHost(), new EstimatedDevice(), new ModelledDevice(),
            new EstimatedHost(), new ModelledHost(), new HostCpu(), new CacheDriveRecords(),
            new CacheDriveBytes(), new CacheHostRecords(), new CacheHostBytes(),
            new DrainRounds(), new DrainMoved()};
    }

    /** A tasklet scan's metrics ({@link TaskletReader}), from what it did. */
    static CustomTaskMetric[] of(ScanStats s, int recordSize) {
        ScanStats.DeviceWork d = s.device();
        ScanStats.PlacementWork p = s.placement();
        ScanStats.CacheWork c = s.cache();
        return new CustomTaskMetric[] {
            value(SCANNED, d.bytesRead()),
            value(LINK, d.outputBytes() + p.hostBytes() + c.hostBytes()),
            value(TIME, d.timeNs()),
            value(ENERGY, d.reportedEnergyNj()),
            value(ON_DEVICE, p.onDevice()),
            value(ON_HOST, p.onHost()),
            value(EST_DEVICE, p.estimatedDeviceNs()),
            value(MODELLED_DEVICE, p.modelledDeviceNs()),
            value(EST_HOST, p.estimatedHostNs()),
            value(MODELLED_HOST, p.modelledHostNs()),
            value(HOST_CPU, p.hostCpuNs()),
            value(CACHE_DRIVE_RECORDS, c.recordsInDrive()),
            value(CACHE_DRIVE_BYTES, c.recordsInDrive() * recordSize),
            value(CACHE_HOST_RECORDS, c.recordsOnHost()),
            value(CACHE_HOST_BYTES, c.recordsOnHost() * recordSize),
            value(DRAIN_ROUNDS, p.drainRounds()),
            value(DRAIN_MOVED, p.movedByDrain()),
        };
    }

    static CustomTaskMetric value(String name, long v) {
        return new CustomTaskMetric() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public long value() {
                return v;
            }
        };
    }

    public static final class Scanned extends CustomSumMetric {
        @Override
        public String name() {
            return SCANNED;
        }

        @Override
        public String description() {
            return "bytes of records the drive's tasklets examined";
        }
    }

    public static final class Link extends CustomSumMetric {
        @Override
        public String name() {
            return LINK;
        }

        @Override
        public String description() {
            return "bytes over the host link";
        }
    }

    public static final class Time extends CustomMetric0 {
        @Override
        public String name() {
            return TIME;
        }

        @Override
        public String description() {
            return "modelled device time (s)";
        }

        @Override
        public String aggregateTaskMetrics(long[] values) {
            return String.format(Locale.ROOT, "%.6f", sum(values) / 1e9);
        }
    }

    public static final class Energy extends CustomMetric0 {
        @Override
        public String name() {
            return ENERGY;
        }

        @Override
        public String description() {
            return "modelled device energy (J)";
        }

        @Override
        public String aggregateTaskMetrics(long[] values) {
            return String.format(Locale.ROOT, "%.6f", sum(values) / 1e9);
        }
    }

    /** A count summed over the tasks. */
    abstract static class Sum extends CustomSumMetric {
        private final String name;
        private final String description;

        Sum(String name, String description) {
            this.name = name;
            this.description = description;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return description;
        }
    }

    public static final class OnDevice extends Sum {
        public OnDevice() {
            super(ON_DEVICE, "partitions whose pushed work ran in the drive (placed)");
        }
    }

    public static final class OnHost extends Sum {
        public OnHost() {
            super(ON_HOST, "partitions whose pushed work ran on the host (placed)");
        }
    }

    public static final class EstimatedDevice extends Sum {
        public EstimatedDevice() {
            super(EST_DEVICE, "planner's device estimate of the partitions run in the drive "
                    + "(ns)");
        }
    }

    public static final class ModelledDevice extends Sum {
        public ModelledDevice() {
            super(MODELLED_DEVICE, "modelled device time of the partitions run in the drive "
                    + "(ns)");
        }
    }

    public static final class EstimatedHost extends Sum {
        public EstimatedHost() {
            super(EST_HOST, "planner's host estimate of the partitions run on the host (ns)");
        }
    }

    public static final class ModelledHost extends Sum {
        public ModelledHost() {
            super(MODELLED_HOST, "modelled host time of the partitions run on the host (ns)");
        }
    }

    public static final class HostCpu extends Sum {
        public HostCpu() {
            super(HOST_CPU, "measured thread CPU time of the host versions (ns)");
        }
    }

    public static final class CacheDriveRecords extends Sum {
        public CacheDriveRecords() {
            super(CACHE_DRIVE_RECORDS, "records of sscache:// files done in the drive over "
                    + "cached blocks");
        }
    }

    public static final class CacheDriveBytes extends Sum {
        public CacheDriveBytes() {
            super(CACHE_DRIVE_BYTES, "bytes of records of sscache:// files done in the drive");
        }
    }

    public static final class CacheHostRecords extends Sum {
        public CacheHostRecords() {
            super(CACHE_HOST_RECORDS, "records of sscache:// files done on the host (misses, "
                    + "records across block or partition edges, stale blocks)");
        }
    }

    public static final class CacheHostBytes extends Sum {
        public CacheHostBytes() {
            super(CACHE_HOST_BYTES, "bytes of records of sscache:// files done on the host");
        }
    }

    abstract static class CustomMetric0 implements CustomMetric {
        static long sum(long[] values) {
            long s = 0;
            for (long v : values) {
                s += v;
            }
            return s;
        }
    }

    /** A Parquet read's host CPU by {@code ParquetHostModel}: the values the host's reader
     *  decoded and the pushed work's rows, or the rows the drive returned. */
    public static final class ParquetHostCpu extends CustomMetric0 {
        @Override
        public String name() {
            return PARQUET_HOST_CPU;
        }

        @Override
        public String description() {
            return "modelled host CPU of the Parquet read (s)";
        }

        @Override
        public String aggregateTaskMetrics(long[] values) {
            return String.format(Locale.ROOT, "%.6f", sum(values) / 1e9);
        }
    }

    public static final class DrainRounds extends Sum {
        public DrainRounds() {
            super(DRAIN_ROUNDS, "rounds in which drained partitions were handed out");
        }
    }

    public static final class DrainMoved extends Sum {
        public DrainMoved() {
            super(DRAIN_MOVED, "drained partitions run on the other side than planned");
        }
    }
}
