package org.smartssd.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.ReflectionUtils;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletSpec;
import org.smartssd.scan.Placement;
import org.smartssd.scan.PlacementCalibration;
import org.smartssd.scan.ScanExecution;
import org.smartssd.scan.ScanPart;
import org.smartssd.scan.ScanRange;
import org.smartssd.scan.ScanStats;
import org.smartssd.scan.ScanTask;
import org.smartssd.scan.TaskletRun;

/**
 * The map task of a device job: its split as a scan task, run by smartssd-scan's
 * {@link ScanExecution} with this task as the engine ({@link MapTaskEngine}): the tasklet
 * in the drive (each input record is a progress report of the drive; the task's status shows
 * the pages done), its output through the job's {@link DeviceMapperFormat} to the shuffle;
 * a split placed on the host ({@link Placement}) through the job's host mapper; a node's
 * splits drained at run time ({@link NodeDrainSplit}) on both sides at once; a split of an
 * {@code sscache://} file in the drive over its cached blocks and through the host mapper
 * over the rest. A map off its drive's node fails before it starts ({@link MapNode}).
 * What ran goes to the job's counters ({@link MapTaskCounters}). The
 * on-device map did the combine and local reduce; this only converts.
 */
public class DeviceMapRunner<K, V> extends Mapper<TaskletProgress, TaskletRun, K, V> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
        Configuration conf = context.getConfiguration();
        TaskletSpec spec = ReflectionUtils.newInstance(DeviceJob.getDeviceMapperClass(conf), conf)
                .tasklet(conf);
        List<FileSplit> splits = new ArrayList<>();
        List<ScanPart> parts = new ArrayList<>();
        ScanTask task;
        if (context.getInputSplit() instanceof NodeDrainSplit d) {
            for (PlacedSplit p : d.splits()) {
                parts.add(part(conf, parts.size(), p));
                splits.add(p);
            }
            task = ScanTask.drained(conf, spec, parts, d.getLocations().length > 0
                    ? d.getLocations()[0] : "");
        } else {
            FileSplit f = (FileSplit) context.getInputSplit();
            splits.add(f);
            task = ScanTask.single(conf, spec, part(conf, 0, f));
        }
        MapNode.require(conf, splits, System.getenv());
        setup(context);
        try {
            ScanStats s = ScanExecution.run(task, new MapTaskEngine(context, spec, splits,
                    !task.drained()));
            MapTaskCounters.add(context, s, spec.layout().recordSize());
        } finally {
            cleanup(context);
        }
    }

    /** A split as a part of the scan; a placed one with its drive's calibration from the
     *  job's configuration (none for an empty split, which runs nothing). */
    private static ScanPart part(Configuration conf, int index, FileSplit f) throws IOException {
        ScanRange r = new ScanRange(f.getPath(), f.getStart(), f.getLength(), f.getLocations());
        if (!(f instanceof PlacedSplit p)) {
            return ScanPart.unplaced(index, r);
        }
        PlacementCalibration c = f.getLength() == 0 ? null
                : PlacementCalibration.load(conf, r.drive());
        return new ScanPart(index, r, p.side(), p.deviceEstimateNs(), p.hostEstimateNs(), c);
    }
}
