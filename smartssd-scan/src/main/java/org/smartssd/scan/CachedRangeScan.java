package org.smartssd.scan;

import java.io.IOException;
import java.util.List;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.SolidStateCache.ScanRun;
import org.smartssd.device.Reason;
import org.smartssd.device.SmartSsdException;
import org.smartssd.device.TaskletSpec;
import org.smartssd.fs.sscache.CachedFile;

/**
 * A part of an {@code sscache://} file: the tasklet in the drive over the part's records
 * that lie wholly inside runs of cached blocks (one SSC_SCAN, which checks every block it
 * reads against the file's current version), then the engine's host version over the part's
 * other records, read through the cache (hits from the drive, misses from the backing store,
 * cached as they are read). The engine combines both outputs as two parts' partial results.
 *
 * <p>A part's records are those whose first byte lies in it; cache parts start on
 * cache-block bounds ({@link ExtentSplits}), so the drive, which uses only the part's own
 * blocks, never does a record of another part. A scan stopped by a block of another version
 * (reason {@link Reason#STALE_BLOCK}) counts for nothing: the host does the whole part, and
 * its reads replace the stale blocks.
 */
final class CachedRangeScan {
    private CachedRangeScan() {
    }

    static ScanStats run(ScanTask task, ScanEngine engine, ScanPart part)
            throws IOException, InterruptedException {
        TaskletSpec spec = task.spec();
        ScanRange range = part.range();
        if (spec.layout().kind() != RecordLayout.Kind.FIXED) {
            throw new IOException("split " + range + ": a scan through the cache needs a FIXED "
                    + "record layout, the tasklet has " + spec.layout().kind());
        }
        int rec = spec.layout().recordSize();
        CachedFile file = engine.cachedFile(part);
        long len = file.version().length();
        long end = Math.min(range.start() + range.length(), len);
        // the part's records: first byte in [start, end), whole inside the file
        long first = (range.start() + rec - 1) / rec;
        long last = Math.min((end + rec - 1) / rec, len / rec);
        List<ScanRun> runs = List.of();
        ScanStats.DeviceWork drive = ScanStats.DeviceWork.NONE;
        long stale = 0;
        if (last > first) {
            CachedFile.DriveScan scan = null;
            try {
                scan = file.scan(spec, engine.cachedScanOutput(part), range.start(),
                        range.start() + range.length());
            } catch (IOException e) {
                if (!(e instanceof SmartSsdException se && se.reason() == Reason.STALE_BLOCK)) {
                    throw new IOException(ScanExecution.taskletName(spec) + " scan of the cached "
                            + "blocks of " + ScanExecution.describe(range) + " failed: "
                            + e.getMessage(), e);
                }
                stale = 1;
            }
            if (scan != null && !scan.runs().isEmpty()) {
                engine.deviceOutput(part, scan.output(), scan.progress());
                drive = ScanStats.DeviceWork.ofCachedScan(scan, spec.taskletId(), spec.layout());
                runs = scan.runs();
            }
        }
        List<long[]> left;
        try {
            left = ScanRun.uncovered(runs, first, last);
        } catch (IOException e) {
            throw new IOException(ScanExecution.describe(range) + ": " + e.getMessage(), e);
        }
        long inDrive = runs.stream().mapToLong(ScanRun::records).sum();
        ScanEngine.HostRead host = left.isEmpty() ? new ScanEngine.HostRead(0, 0)
                : engine.runOnHost(part, left);
        return new ScanStats(drive, ScanStats.PlacementWork.NONE,
                new ScanStats.CacheWork(1, inDrive, ScanStats.CacheWork.blocks(runs),
                        host.records(), host.bytes(), stale), inDrive + host.records());
    }
}
