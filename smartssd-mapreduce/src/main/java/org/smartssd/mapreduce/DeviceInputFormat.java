package org.smartssd.mapreduce;

import org.smartssd.fs.sscache.SsCacheFileSystem;


import org.apache.hadoop.fs.FileSystem;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthRecordReader;
import org.apache.hadoop.util.ReflectionUtils;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletSpec;
import org.smartssd.fs.SmartSsdFileSystem;
import org.smartssd.scan.ExtentSplits;
import org.smartssd.scan.Placement;
import org.smartssd.scan.PlacementCalibration;
import org.smartssd.scan.ScanRange;
import org.smartssd.scan.DrainScheduler;
import org.smartssd.scan.SplitPlanner;
import org.smartssd.scan.TaskletRun;

/**
 * Splits of {@code smartssd://} files for device jobs, from the file's extents on its drive:
 * one split per extent, an extent longer than the split size (Hadoop's
 * {@code mapreduce.input.fileinputformat.split.minsize/maxsize} against the file's block
 * size) cut into slices of that size as {@link FileInputFormat} cuts a file (a last slice up
 * to 10 % over stays whole), and a last extent shorter than 10 % of the split size joined to
 * the split before it. Every split names the host of the file's drive (its block locations), so
 * the scheduler places each map next to its drive. An inline (packed) object has no extents
 * and is cut like one extent. Split bounds need not fall on record or page bounds: the drive
 * gives each record to the split holding its first byte. The reader runs the job's tasklet
 * over its split ({@link TaskletRunReader}). Cost: one LOOKUP and one EXTENTS command per
 * file (one more per 256 extents). Inputs on several drives (one node may hold many, each
 * {@code smartssd.device.NAME.uri}) give splits taken from each drive in turn, so their maps
 * run on all drives at once.
 */
public class DeviceInputFormat extends FileInputFormat<TaskletProgress, TaskletRun> {

    /**
     * The drive's progress reports of the split's tasklet run; for a split placed on the host
     * ({@link PlacedSplit}), the split's fixed-size records as Hadoop's
     * {@link FixedLengthRecordReader} reads them (LongWritable offset, BytesWritable record),
     * which {@link DeviceMapRunner} hands to the job's host mapper. Hadoop does not check a
     * reader's type parameters at run time; the map runner dispatches on the split.
     */
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public RecordReader<TaskletProgress, TaskletRun> createRecordReader(InputSplit split,
            TaskAttemptContext context) throws IOException {
        if (split instanceof FileSplit f && isCached(f.getPath())) {
            return (RecordReader) new NoRecords();   // the scan reads the split (ScanExecution)
        }
        if (split instanceof NodeDrainSplit) {
            return (RecordReader) new NoRecords();   // the drain reads each of its splits
        }
        if (split instanceof PlacedSplit p && p.side() == Placement.HOST) {
            PlacementCalibration c = PlacementCalibration.load(context.getConfiguration(),
                    p.getPath().toUri().getAuthority());
            return (RecordReader) new FixedLengthRecordReader(c.recordSize());
        }
        return new TaskletRunReader();
    }

    /** Whether {@code p} is an {@code sscache://} file: its splits run as scans through the
     *  cache (smartssd-scan's CachedRangeScan). */
    static boolean isCached(Path p) {
        return ExtentSplits.isCached(p);
    }

    /** The reader of a cache split: none, the map runner scans the split itself. */
    private static final class NoRecords extends RecordReader<Object, Object> {
        @Override
        public void initialize(InputSplit split, TaskAttemptContext context) {
        }

        @Override
        public boolean nextKeyValue() {
            return false;
        }

        @Override
        public Object getCurrentKey() {
            return null;
        }

        @Override
        public Object getCurrentValue() {
            return null;
        }

        @Override
        public float getProgress() {
            return 1f;
        }

        @Override
        public void close() {
        }
    }

    @Override
    protected boolean isSplitable(JobContext context, Path file) {
        return true;
    }

    @Override
    public List<InputSplit> getSplits(JobContext job) throws IOException {
        List<FileSplit> splits = extentSplits(job);
        Optional<Placement> placement = Placement.of(job.getConfiguration());
        if (placement.isPresent() && splits.stream().anyMatch(s -> isCached(s.getPath()))) {
            throw new IOException(Placement.KEY + " is not planned for sscache:// inputs: "
                    + "their splits run in the drive over the cached blocks and on the host "
                    + "over the rest; unset it");
        }
        return placement.isPresent() ? place(job, placement.get(), splits)
                : new ArrayList<>(splits);
    }

    /** The splits at the files' extents, each drive's in turn, before any placement
     *  ({@link ExtentSplits}). */
    List<FileSplit> extentSplits(JobContext job) throws IOException {
        List<FileStatus> files = listStatus(job);
        List<FileSplit> out = new ArrayList<>();
        for (ScanRange r : ExtentSplits.of(job.getConfiguration(), files)) {
            out.add(makeSplit(r.path(), r.start(), r.length(), r.hosts()));
        }
        job.getConfiguration().setLong(NUM_INPUT_FILES, files.size());
        return out;
    }

    /**
     * Plans each split's side ({@link Placement}): calibrates each drive once (its first
     * non-empty split; {@link PlacementCalibration}), estimates both versions of every split,
     * and lets the drive and the host drain the queue of splits ({@link SplitPlanner}). The
     * calibration goes into the job configuration for the tasks. With {@code auto}, each
     * node's splits become one {@link NodeDrainSplit}, drained at run time
     * ({@link DrainScheduler}), unless {@value Placement#DRAIN} is false.
     */
    private static List<InputSplit> place(JobContext job, Placement mode, List<FileSplit> splits)
            throws IOException {
        Configuration conf = job.getConfiguration();
        TaskletSpec spec = ReflectionUtils.newInstance(DeviceJob.getDeviceMapperClass(conf), conf)
                .tasklet(conf);
        @SuppressWarnings("rawtypes")
        Class<? extends Mapper> hostMapper = conf.getClass(Placement.HOST_MAPPER_CLASS, null,
                Mapper.class);
        if (hostMapper == null && mode != Placement.DEVICE) {
            throw new IOException(Placement.KEY + "=" + mode.cliName() + " needs the host "
                    + "version of the map: set " + Placement.HOST_MAPPER_CLASS
                    + " (DeviceJob.setHostMapper)");
        }
        List<ScanRange> ranges = new ArrayList<>();
        for (FileSplit s : splits) {
            ranges.add(new ScanRange(s.getPath(), s.getStart(), s.getLength(),
                    s.getLocations()));
        }
        List<SplitPlanner.Placed> placed = SplitPlanner.place(conf, spec, ranges, mode,
                HostMapperOperator.of(conf, spec, hostMapper));
        List<PlacedSplit> out = new ArrayList<>();
        for (int i = 0; i < splits.size(); i++) {
            SplitPlanner.Placed p = placed.get(i);
            if (p.calibration() != null) {
                p.calibration().store(conf, splits.get(i).getPath().toUri().getAuthority());
            }
            out.add(new PlacedSplit(splits.get(i), p.side(), p.deviceNs(), p.hostNs()));
        }
        if (mode != Placement.AUTO || !conf.getBoolean(Placement.DRAIN, true)) {
            return new ArrayList<>(out);
        }
        List<InputSplit> drains = new ArrayList<>();
        DrainScheduler.byNode(out, s -> {
            try {
                return s.getLocations();   // a FileSplit's: declared to throw, never does
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        })
                .forEach((node, mine) -> drains.add(new NodeDrainSplit(node, mine)));
        return drains;
    }

    /** Refuses inputs that are not on a Smart SSD, naming them, before any task starts. */
    @Override
    protected List<FileStatus> listStatus(JobContext job) throws IOException {
        List<FileStatus> files = super.listStatus(job);
        for (FileStatus f : files) {
            FileSystem fs = f.getPath().getFileSystem(job.getConfiguration());
            if (!(fs instanceof SmartSsdFileSystem) && !(fs instanceof SsCacheFileSystem)) {
                throw new IOException("device job input " + f.getPath() + " is not on a Smart "
                        + "SSD: a device job reads smartssd://NAME/... files, or "
                        + "sscache://NAME/... files through the drive's cache");
            }
        }
        return files;
    }
}
