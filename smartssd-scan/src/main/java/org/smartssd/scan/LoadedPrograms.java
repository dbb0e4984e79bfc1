package org.smartssd.scan;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.smartssd.device.TaskletFailedException;
import org.smartssd.device.SmartSsdDevice;

/**
 * The check a device job and a Spark read make before running an eBPF program: every drive
 * their {@code smartssd://} files are on keeps it (one TASKLET_LIST per drive), so a drive
 * without it fails the submission or the analysis, named, rather than a task.
 */
public final class LoadedPrograms {
    private LoadedPrograms() {
    }

    /**
     * @throws TaskletFailedException (failure {@code PROGRAM_NOT_LOADED}) naming the first drive without {@code program}
     */
    public static void require(String program, Iterable<Path> files, Configuration conf)
            throws IOException {
        Set<String> asked = new HashSet<>();
        for (Path file : files) {
            SmartSsdDevice drive = DeviceAccess.fileSystem(file, conf).device();
            if (asked.add(drive.uri()) && drive.listPrograms().stream()
                    .noneMatch(p -> p.name().equals(program))) {
                throw TaskletFailedException.programNotLoaded(program, drive.uri());
            }
        }
    }
}
