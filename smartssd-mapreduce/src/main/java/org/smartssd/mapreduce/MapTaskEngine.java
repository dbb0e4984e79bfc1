package org.smartssd.mapreduce;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthRecordReader;
import org.apache.hadoop.util.ReflectionUtils;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletSpec;
import org.smartssd.fs.sscache.CachedFile;
import org.smartssd.fs.sscache.SsCacheFileSystem;
import org.smartssd.scan.Placement;
import org.smartssd.scan.ScanEngine;
import org.smartssd.scan.ScanPart;
import org.smartssd.scan.TaskletRun;

/**
 * A device job's map task as the engine of a scan ({@link ScanEngine}): the drive's side is
 * the job's tasklet, followed through a {@link TaskletRunReader} (for the task's own split,
 * the task's reader, so Hadoop's progress is the drive's pages done), its output through the
 * job's {@link DeviceMapperFormat}; the host's side is the job's host mapper
 * ({@value Placement#HOST_MAPPER_CLASS}) over the split's fixed-size records, in a map
 * context of its own ({@link SubMapContext}) when the task's reader is not the split's. All
 * outputs go to the task's one output, one write at a time.
 */
final class MapTaskEngine implements ScanEngine {
    @SuppressWarnings("rawtypes")
    private final Mapper.Context context;
    private final TaskletSpec spec;
    /** The task's splits, by part index. */
    private final List<FileSplit> splits;
    /** Whether the task's split is the one part, read by the task's own reader. */
    private final boolean ownReader;

    @SuppressWarnings("rawtypes")
    MapTaskEngine(Mapper.Context context, TaskletSpec spec, List<FileSplit> splits,
                  boolean ownReader) {
        this.context = context;
        this.spec = spec;
        this.splits = splits;
        this.ownReader = ownReader;
    }

    @Override
    public TaskletRun runOnDevice(ScanPart part) throws IOException, InterruptedException {
        if (ownReader) {
            TaskletRun run = null;
            while (context.nextKeyValue()) {
                run = (TaskletRun) context.getCurrentValue();
                context.setStatus(status((TaskletProgress) context.getCurrentKey()));
            }
            return run;
        }
        TaskletRunReader reader = new TaskletRunReader();
        try {
            reader.initialize(splits.get(part.index()), context);
            TaskletRun run = null;
            while (reader.nextKeyValue()) {
                run = reader.getCurrentValue();
            }
            return run;
        } catch (IOException | InterruptedException | RuntimeException e) {
            reader.close();
            throw e;
        }
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void deviceOutput(ScanPart part, byte[] output, TaskletProgress done)
            throws IOException, InterruptedException {
        Configuration conf = context.getConfiguration();
        DeviceMapperFormat format = ReflectionUtils.newInstance(
                DeviceJob.getDeviceMapperFormatClass(conf), conf);
        FileSplit split = splits.get(part.index());
        format.convert(new DeviceOutput(spec, split.getPath(), split.getStart(),
                split.getLength(), output, done), (k, v) -> {
                    synchronized (context) {   // as SubMapContext's writes
                        context.write(k, v);
                    }
                });
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public HostRead runOnHost(ScanPart part) throws IOException, InterruptedException {
        Class<? extends Mapper> cls = hostMapper();
        FileSplit split = splits.get(part.index());
        if (cls == null) {
            throw new IOException("split " + split + " is placed on the host but "
                    + Placement.HOST_MAPPER_CLASS + " is not set");
        }
        int rec = part.calibration().recordSize();
        Mapper.Context records;
        long n;
        if (ownReader) {
            Counter in = context.getCounter(TaskCounter.MAP_INPUT_RECORDS);
            long before = in.getValue();
            runMapper(cls, context, split);
            n = in.getValue() - before;
        } else {
            CountingReader reader = new CountingReader(new FixedLengthRecordReader(rec));
            records = SubMapContext.of(context, reader, split);
            try {
                reader.initialize(split, records);
                runMapper(cls, records, split);
                n = reader.records.get();
            } finally {
                reader.close();
            }
        }
        return new HostRead(n * rec, n);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void runMapper(Class<? extends Mapper> cls, Mapper.Context records, FileSplit split)
            throws IOException, InterruptedException {
        records.setStatus("host: " + cls.getSimpleName() + " over " + split.getLength()
                + " bytes");
        ReflectionUtils.newInstance(cls, context.getConfiguration()).run(records);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public HostRead runOnHost(ScanPart part, List<long[]> intervals)
            throws IOException, InterruptedException {
        long total = intervals.stream().mapToLong(iv -> iv[1] - iv[0]).sum();
        if (total == 0) {
            return new HostRead(0, 0);
        }
        FileSplit split = splits.get(part.index());
        Class<? extends Mapper> cls = hostMapper();
        if (cls == null) {
            throw new IOException("split " + split + " of an sscache:// file has " + total
                    + " records the drive cannot do (not cached, or across a block edge): set "
                    + Placement.HOST_MAPPER_CLASS + " (DeviceJob.setHostMapper)");
        }
        int rec = spec.layout().recordSize();
        FileSystem fs = split.getPath().getFileSystem(context.getConfiguration());
        try (FSDataInputStream in = fs.open(split.getPath())) {
            RecordIntervalsReader reader = new RecordIntervalsReader(in, rec, intervals, total);
            context.setStatus("host: " + cls.getSimpleName() + " over " + total
                    + " records not done in the drive");
            ReflectionUtils.newInstance(cls, context.getConfiguration())
                    .run(SubMapContext.of(context, reader, split));
        }
        return new HostRead(total * rec, total);
    }

    @Override
    public CachedFile cachedFile(ScanPart part) throws IOException {
        FileSplit split = splits.get(part.index());
        FileSystem fs = split.getPath().getFileSystem(context.getConfiguration());
        if (!(fs instanceof SsCacheFileSystem cfs)) {
            throw new IOException(split.getPath() + " is not an sscache:// file");
        }
        return cfs.cachedFile(split.getPath());
    }

    @Override
    public String cachedScanOutput(ScanPart part) {
        return DeviceJob.scratchDir(context.getConfiguration()) + "/cached-" + UUID.randomUUID()
                + ".out";
    }

    @Override
    public void nothingToRun(ScanPart part) {
        if (ownReader) {
            context.setStatus("device: empty split, nothing to run");
        }
    }

    @SuppressWarnings("rawtypes")
    private Class<? extends Mapper> hostMapper() {
        return context.getConfiguration().getClass(Placement.HOST_MAPPER_CLASS, null,
                Mapper.class);
    }

    static String status(TaskletProgress p) {
        return String.format(Locale.ROOT, "device %s: %d/%d pages, %d records, %d output bytes",
                p.state().name().toLowerCase(Locale.ROOT), p.pagesDone(), p.pagesTotal(),
                p.records(), p.outputBytes());
    }
}
