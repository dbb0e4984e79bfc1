package org.smartssd.scan;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A part placed on the host: the engine's host version over its records. Its modelled time
 * is the bytes read over the link plus the host's rate over the bytes and records
 * ({@link PlacementCalibration#hostNs(long, long)}); its thread CPU time is measured, for
 * comparison, never modelled.
 */
final class HostRangeRun {
    private HostRangeRun() {
    }

    static ScanExecution.Ran run(ScanEngine engine, ScanPart part)
            throws IOException, InterruptedException {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long cpu0 = mx.getCurrentThreadCpuTime();
        ScanEngine.HostRead r = engine.runOnHost(part);
        long cpu = Math.max(0, mx.getCurrentThreadCpuTime() - cpu0);
        long modelled = part.calibration().hostNs(r.bytes(), r.records());
        ScanStats s = new ScanStats(ScanStats.DeviceWork.NONE,
                ScanStats.PlacementWork.host(part.hostEstimateNs(), modelled, r.bytes(),
                        r.records(), cpu), ScanStats.CacheWork.NONE, r.records());
        return new ScanExecution.Ran(s, modelled);
    }
}
