package org.smartssd.scan;

import java.io.IOException;

import org.smartssd.device.TaskletProgress;

/**
 * A part run in the drive: the engine's tasklet run over its range, its output to the
 * engine, the run's work counted. A placed part's device estimate is held in this JVM's
 * account of its drive's queue ({@link DriveQueue}) while it runs, and its modelled time is
 * its counted work at its calibration's prices plus its output over the link.
 */
final class DeviceRangeRun {
    private DeviceRangeRun() {
    }

    static ScanExecution.Ran run(ScanTask task, ScanEngine engine, ScanPart part)
            throws IOException, InterruptedException {
        String drive = part.range().drive();
        long queued = part.placed() ? part.deviceEstimateNs() : 0;
        DriveQueue.add(drive, queued);
        try {
            TaskletRun run = engine.runOnDevice(part);
            try {
                TaskletProgress done = run.last();
                engine.deviceOutput(part, run.output(), done);
                long modelled = part.placed()
                        ? part.calibration().deviceModelNs(done, run.output().length) : 0;
                ScanStats s = new ScanStats(ScanStats.DeviceWork.ofRun(run,
                        task.spec().layout(), part.range().length()),
                        part.placed() ? ScanStats.PlacementWork.device(part.deviceEstimateNs(),
                                modelled) : ScanStats.PlacementWork.NONE,
                        ScanStats.CacheWork.NONE, done.records());
                return new ScanExecution.Ran(s, modelled);
            } finally {
                run.close();
            }
        } finally {
            DriveQueue.add(drive, -queued);
        }
    }
}
