package org.smartssd.cli;

import java.util.List;
import java.util.concurrent.Callable;

import org.smartssd.device.SmartSsdDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code smartssd rm URI PATH...}: remove files or directories from the drive. */
@Command(name = "rm", mixinStandardHelpOptions = true,
        description = "Remove files, or directories with -r, from the drive. "
        + "Stops at the first failure.")
final class RmCommand implements Callable<Integer> {
    @ParentCommand
    SmartSsdCli cli;

    @Parameters(index = "0", paramLabel = "URI", description = "the drive")
    String uri;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "PATH",
            description = "absolute paths on the drive")
    List<String> paths;

    @Option(names = {"-r", "--recursive"}, description = "remove directories and their contents")
    boolean recursive;

    @Override
    public Integer call() throws Exception {
        try (SmartSsdDevice d = DeviceArgs.open(uri)) {
            for (String p : paths) {
                d.remove(p, recursive);
            }
            return ExitCodes.OK;
        }
    }
}
