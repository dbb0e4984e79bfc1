package org.smartssd.scan;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.tasklet.HostTasklet;
import org.smartssd.device.tasklet.SplitRecords;

/**
 * The built-in tasklets' host versions ({@link HostTasklet}, native/java) as a scan runs
 * them: over byte ranges of a file read through its file system, cut into records as the
 * drive cuts them ({@link SplitRecords}), and as the planner's host operator over a
 * calibration sample. Their output is the drive's, byte for byte.
 */
public final class HostTasklets {
    private HostTasklets() {
    }

    /** A host run's output, as the drive writes it, and what it read. */
    public record Output(byte[] output, long bytes, long records) {
    }

    /**
     * {@code spec}'s host version over the records of the byte ranges {start, length} of
     * {@code path} (a file of {@code fileLength} bytes), one after another.
     */
    public static Output run(TaskletSpec spec, FileSystem fs, Path path, long fileLength,
                             List<long[]> byteRanges) throws IOException {
        HostTasklet h = HostTasklet.of(spec);
        long bytes = 0;
        try (FSDataInputStream in = fs.open(path)) {
            for (long[] r : byteRanges) {
                bytes += SplitRecords.cut(spec.layout(), fileLength, r[0], r[1], in::read,
                        h::accept);
            }
        }
        return new Output(h.finish(), bytes, h.recordsIn());
    }

    /** The host version over a calibration sample: the tasklet's work, output discarded. */
    public static PlacementCalibration.HostOperator operator(String engine, TaskletSpec spec) {
        RecordLayout layout = spec.layout();
        String name = engine + "/" + spec.taskletId() + "/" + layout + "/"
                + Arrays.hashCode(spec.params());
        return new PlacementCalibration.HostOperator() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void run(byte[] sample) throws IOException {
                HostTasklet h = HostTasklet.of(spec);
                SplitRecords.cut(layout, sample.length, 0, sample.length,
                        SplitRecords.Input.of(sample), h::accept);
                h.finish();
            }
        };
    }
}
