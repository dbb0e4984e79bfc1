package org.smartssd.scan;

import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.smartssd.device.TaskletSpec;

/**
 * What one task of a scan runs: the tasklet over one range, or over a node's ranges drained
 * at run time by its drives and its host together ({@code drained}; {@code node} names it).
 */
public record ScanTask(Configuration conf, TaskletSpec spec, List<ScanPart> parts,
                       boolean drained, String node) {
    public ScanTask {
        parts = List.copyOf(parts);
        if (!drained && parts.size() != 1) {
            throw new IllegalArgumentException("a task that is not drained runs one range, not "
                    + parts.size());
        }
    }

    public static ScanTask single(Configuration conf, TaskletSpec spec, ScanPart part) {
        return new ScanTask(conf, spec, List.of(part), false, "");
    }

    public static ScanTask drained(Configuration conf, TaskletSpec spec, List<ScanPart> parts,
                                   String node) {
        return new ScanTask(conf, spec, parts, true, node);
    }
}
