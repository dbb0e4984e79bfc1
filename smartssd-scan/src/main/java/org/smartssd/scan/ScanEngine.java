package org.smartssd.scan;

import java.io.IOException;
import java.util.List;

import org.smartssd.device.TaskletProgress;
import org.smartssd.fs.sscache.CachedFile;

/**
 * What an engine (a MapReduce map task, a Spark partition reader) supplies to
 * {@link ScanExecution}: how it runs each side over one part and what it does with the
 * outputs. The execution decides which side runs what, keeps the drives' queues and counts
 * the work ({@link ScanStats}). Drained parts run on several threads at once: every method
 * must be safe to call from them.
 */
public interface ScanEngine {

    /** What the host version read: bytes over the link and the records it was given. */
    record HostRead(long bytes, long records) {
    }

    /**
     * Runs the tasklet in the drive over {@code part} (not empty) to its end: the finished
     * run, still open (the execution reads its output, then closes it).
     */
    TaskletRun runOnDevice(ScanPart part) throws IOException, InterruptedException;

    /** A run's output (from {@link #runOnDevice} or a scan of cached blocks), as the drive
     *  writes it, with the drive's last report. */
    void deviceOutput(ScanPart part, byte[] output, TaskletProgress done)
            throws IOException, InterruptedException;

    /** The host version over the part's records, read through the file system. */
    HostRead runOnHost(ScanPart part) throws IOException, InterruptedException;

    /**
     * The host version over records [a, b) of each of {@code recordIntervals} (record
     * indexes) of a part of an {@code sscache://} file, read through the cache, after the
     * drive's side gave its output ({@link #deviceOutput}).
     */
    HostRead runOnHost(ScanPart part, List<long[]> recordIntervals)
            throws IOException, InterruptedException;

    /** The {@code sscache://} file of {@code part}, checked as the engine planned it. */
    CachedFile cachedFile(ScanPart part) throws IOException;

    /** The drive path of the output object of a scan of {@code part}'s cached blocks. */
    String cachedScanOutput(ScanPart part);

    /** An empty part: nothing runs. */
    default void nothingToRun(ScanPart part) {
    }
}
