package org.smartssd.loganalyzer.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.smartssd.loganalyzer.LogAnalyzer;
import picocli.CommandLine.Option;

/** Which drive: an embedded emulated one (the default) or {@code --device URI}. */
final class DriveOptions {
    @Option(names = "--device", paramLabel = "URI",
            description = "the drive: emu:/path.img, unix:/path.sock or sg:/dev/sdX "
                    + "(default: an embedded emulated drive in a temp folder)")
    String device;

    @Option(names = "--profile", paramLabel = "NAME|FILE",
            description = "model profile of the embedded drive (default kang-smartssd)")
    String profile;

    @Option(names = "--work", paramLabel = "DIR",
            description = "folder for the embedded drive and Hadoop's scratch (default: a "
                    + "temp folder, removed at exit)")
    Path work;

    /** The analyzer on the chosen drive; {@code bytes} sizes an embedded drive. */
    LogAnalyzer open(long bytes) throws IOException {
        Path dir = work != null ? Files.createDirectories(work) : TempDirs.create();
        if (device != null) {
            if (profile != null) {
                throw new IllegalArgumentException("--profile applies to the embedded drive, "
                        + "not to --device " + device);
            }
            return LogAnalyzer.attached(dir, device);
        }
        return LogAnalyzer.embedded(dir, LogAnalyzer.capacityFor(bytes), profile);
    }
}
