package org.smartssd.scan;

import java.io.IOException;

import org.smartssd.device.TaskletSpec;
import org.smartssd.device.tasklet.BuiltinTasklet;

/**
 * The one execution of a scan task, for a device job's map task and a Spark partition
 * alike: which path runs it and with what, the engine ({@link ScanEngine}) supplying how
 * each side runs and where the outputs go.
 * <ul>
 *   <li>a part of an {@code sscache://} file: the drive over its cached blocks, the host over
 *       the rest ({@link CachedRangeScan});</li>
 *   <li>a node's parts drained at run time by its drives and its host ({@link NodeDrainRun},
 *       {@link DrainScheduler});</li>
 *   <li>a part placed on the host: the host version over its records
 *       ({@link HostRangeRun});</li>
 *   <li>any other part: one tasklet run in the drive ({@link DeviceRangeRun}).</li>
 * </ul>
 * An empty part runs nothing.
 */
public final class ScanExecution {
    private ScanExecution() {
    }

    /** Runs {@code task}: what it did. */
    public static ScanStats run(ScanTask task, ScanEngine engine)
            throws IOException, InterruptedException {
        if (task.drained()) {
            return NodeDrainRun.run(task, engine);
        }
        ScanPart part = task.parts().get(0);
        if (ExtentSplits.isCached(part.range().path())) {
            return CachedRangeScan.run(task, engine, part);
        }
        if (part.range().length() == 0) {
            engine.nothingToRun(part);
            return ScanStats.NONE;
        }
        return part.onHost() ? HostRangeRun.run(engine, part).stats()
                : DeviceRangeRun.run(task, engine, part).stats();
    }

    /** A part's run on one side: what it did and its modelled ns (0 unplaced). */
    record Ran(ScanStats stats, long modelledNs) {
    }

    /** The tasklet's name, for messages. */
    static String taskletName(TaskletSpec spec) {
        for (BuiltinTasklet t : BuiltinTasklet.values()) {
            if (t.id() == spec.taskletId()) {
                return t.taskletName();
            }
        }
        return "tasklet " + spec.taskletId();
    }

    /** {@code path [start, end)}, for messages. */
    static String describe(ScanRange r) {
        return r.path() + " [" + r.start() + ", " + (r.start() + r.length()) + ")";
    }
}
