package org.smartssd.mapreduce;

import java.io.IOException;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.ReflectionUtils;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.SolidStateCache.ScanRun;
import org.smartssd.device.StaleCacheBlockException;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletSpec;
import org.smartssd.fs.sscache.CachedFile;
import org.smartssd.fs.sscache.SsCacheFileSystem;
import org.smartssd.scan.Placement;

/**
 * Runs a device job's split of an {@code sscache://} file: the tasklet in the drive over the
 * split's records that lie wholly inside runs of cached blocks (one SSC_SCAN, which checks
 * every block it reads against the file's current version), then the job's host mapper over
 * the split's other records, read through the cache (hits from the drive, misses from the
 * backing store, cached as they are read). Both outputs go to the same shuffle, as for a
 * placed job ({@link HostSplitRunner}); the reduce merges them.
 *
 * <p>A split's records are those whose first byte lies in it (Hadoop's rule); cache splits
 * start on cache-block bounds ({@link DeviceInputFormat}), so the drive, which uses only the
 * split's own blocks, never does a record of another split. A scan stopped by a block of
 * another version ({@link StaleCacheBlockException}) counts for nothing: the host does the
 * whole split, and its reads replace the stale blocks.
 */
final class CachedScanRunner {
    private CachedScanRunner() {
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void run(Mapper.Context context, FileSplit split)
            throws IOException, InterruptedException {
        Configuration conf = context.getConfiguration();
        TaskletSpec spec = ReflectionUtils.newInstance(DeviceJob.getDeviceMapperClass(conf), conf)
                .tasklet(conf);
        if (spec.layout().kind() != RecordLayout.Kind.FIXED) {
            throw new IOException("split " + split + ": a scan through the cache needs a FIXED "
                    + "record layout, the tasklet has " + spec.layout().kind());
        }
        int rec = spec.layout().recordSize();
        FileSystem fs = split.getPath().getFileSystem(conf);
        if (!(fs instanceof SsCacheFileSystem cfs)) {
            throw new IOException(split.getPath() + " is not an sscache:// file");
        }
        CachedFile file = cfs.cachedFile(split.getPath());
        long len = file.version().length();
        long end = Math.min(split.getStart() + split.getLength(), len);
        // the split's records: first byte in [start, end), whole inside the file
        long k0 = (split.getStart() + rec - 1) / rec;
        long k1 = Math.min((end + rec - 1) / rec, len / rec);
        List<ScanRun> runs = k1 > k0 ? deviceScan(context, spec, split, file) : List.of();

        List<long[]> host;
        try {
            host = ScanRun.uncovered(runs, k0, k1);
        } catch (IOException e) {
            throw new IOException("split " + split + ": " + e.getMessage(), e);
        }
        long inDrive = runs.stream().mapToLong(ScanRun::records).sum();
        long onHost = runHostMapper(context, split, fs, rec, host);
        context.getCounter(CacheScanCounters.CACHED_SPLITS).increment(1);
        context.getCounter(CacheScanCounters.RECORDS_IN_DRIVE).increment(inDrive);
        context.getCounter(CacheScanCounters.BYTES_IN_DRIVE).increment(inDrive * rec);
        context.getCounter(CacheScanCounters.RECORDS_ON_HOST).increment(onHost);
        context.getCounter(CacheScanCounters.BYTES_ON_HOST).increment(onHost * rec);
        context.getCounter(TaskCounter.MAP_INPUT_RECORDS).setValue(inDrive + onHost);
    }

    /** The scan in the drive and its output through the job's format; the runs it did. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<ScanRun> deviceScan(Mapper.Context context, TaskletSpec spec,
                                            FileSplit split, CachedFile file)
            throws IOException, InterruptedException {
        Configuration conf = context.getConfiguration();
        String outPath = DeviceJob.scratchDir(conf) + "/cached-" + UUID.randomUUID() + ".out";
        CachedFile.DriveScan scan;
        try {
            scan = file.scan(spec, outPath, split.getStart(), split.getStart() + split.getLength());
        } catch (StaleCacheBlockException e) {
            context.getCounter(CacheScanCounters.STALE_SCANS).increment(1);
            return List.of();
        }
        if (scan.runs().isEmpty()) {
            return scan.runs();
        }
        TaskletProgress p = scan.progress();
        byte[] bytes = scan.output();
        DeviceMapperFormat format = ReflectionUtils.newInstance(
                DeviceJob.getDeviceMapperFormatClass(conf), conf);
        format.convert(new DeviceOutput(spec, split.getPath(), split.getStart(),
                split.getLength(), bytes, p), context::write);
        long blocks = scan.runs().stream().mapToLong(ScanRun::blocks).sum();
        context.getCounter(CacheScanCounters.BLOCKS_READ_IN_DRIVE).increment(blocks);
        context.getCounter(DeviceCounters.TASKLET_RUNS).increment(1);
        context.getCounter(DeviceCounters.PAGES_SCANNED).increment(p.pagesDone());
        context.getCounter(DeviceCounters.RECORDS_SCANNED).increment(p.records());
        context.getCounter(DeviceCounters.OUTPUT_BYTES).increment(bytes.length);
        context.getCounter(DeviceCounters.DEVICE_TIME_NS)
                .increment(Math.max(0, p.finishedNs() - p.startedNs()));
        context.getCounter(DeviceCounters.DEVICE_INSTRUCTIONS).increment(p.instructions());
        context.getCounter(DeviceCounters.DEVICE_DRAM_ACCESSES).increment(p.dramAccesses());
        return scan.runs();
    }

    /**
     * The job's host mapper over records [a, b) of each interval, read through the cache,
     * its output to the task's. \return the records it was given.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static long runHostMapper(Mapper.Context context, FileSplit split, FileSystem fs,
                                      int rec, List<long[]> intervals)
            throws IOException, InterruptedException {
        long total = intervals.stream().mapToLong(iv -> iv[1] - iv[0]).sum();
        if (total == 0) {
            return 0;
        }
        Configuration conf = context.getConfiguration();
        Class<? extends Mapper> cls = conf.getClass(Placement.HOST_MAPPER_CLASS, null,
                Mapper.class);
        if (cls == null) {
            throw new IOException("split " + split + " of an sscache:// file has " + total
                    + " records the drive cannot do (not cached, or across a block edge): set "
                    + Placement.HOST_MAPPER_CLASS + " (DeviceJob.setHostMapper)");
        }
        try (FSDataInputStream in = fs.open(split.getPath())) {
            RecordsReader reader = new RecordsReader(in, rec, intervals, total);
            context.setStatus("host: " + cls.getSimpleName() + " over " + total
                    + " records not done in the drive");
            ReflectionUtils.newInstance(cls, conf).run(SubMapContext.of(context, reader, split));
        }
        return total;
    }

    /** Records [a, b) of each interval, as FixedLengthRecordReader gives them: the byte
     *  offset and the record. */
    private static final class RecordsReader extends RecordReader<LongWritable, BytesWritable> {
        private final FSDataInputStream in;
        private final int rec;
        private final List<long[]> intervals;
        private final long total;
        private final LongWritable key = new LongWritable();
        private final BytesWritable value;
        private int interval;
        private long next = -1;
        private long done;

        RecordsReader(FSDataInputStream in, int rec, List<long[]> intervals, long total) {
            this.in = in;
            this.rec = rec;
            this.intervals = intervals;
            this.total = total;
            this.value = new BytesWritable(new byte[rec]);
        }

        @Override
        public void initialize(InputSplit split, TaskAttemptContext context) {
        }

        @Override
        public boolean nextKeyValue() throws IOException {
            while (interval < intervals.size() && (next < 0 || next >= intervals.get(interval)[1])) {
                if (next >= 0) {
                    interval++;
                    next = -1;
                    continue;
                }
                next = intervals.get(interval)[0];
                in.seek(next * rec);
            }
            if (interval >= intervals.size()) {
                return false;
            }
            in.readFully(value.getBytes(), 0, rec);
            key.set(next * rec);
            next++;
            done++;
            return true;
        }

        @Override
        public LongWritable getCurrentKey() {
            return key;
        }

        @Override
        public BytesWritable getCurrentValue() {
            return value;
        }

        @Override
        public float getProgress() {
            return total == 0 ? 1f : (float) done / total;
        }

        @Override
        public void close() {
        }
    }
}
