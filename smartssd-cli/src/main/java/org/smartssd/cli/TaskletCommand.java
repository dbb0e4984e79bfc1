package org.smartssd.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;

import org.smartssd.device.LoadedProgram;
import org.smartssd.device.SmartSsdDevice;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code smartssd tasklet load|ls|rm URI ...}: the eBPF tasklet programs a drive keeps
 * (docs/tasklets.md, "Your own tasklets in eBPF"). The drive verifies a program at load; a
 * refusal names the instruction and the verifier's reason.
 */
@Command(name = "tasklet", mixinStandardHelpOptions = true,
        description = "Load, list and remove eBPF tasklet programs on the drive.",
        subcommands = {TaskletCommand.Load.class, TaskletCommand.Ls.class,
            TaskletCommand.Rm.class})
final class TaskletCommand implements Callable<Integer> {
    @ParentCommand
    SmartSsdCli cli;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "a subcommand is required: load, ls or rm");
    }

    /** {@code smartssd tasklet load URI OBJECT.o --name NAME [--replace]} */
    @Command(name = "load", mixinStandardHelpOptions = true,
            description = "Load the program of an object compiled with clang -O2 -target bpf"
            + " -c (bin/build-tasklet). The drive verifies it and keeps it across restarts.")
    static final class Load implements Callable<Integer> {
        @ParentCommand
        TaskletCommand parent;

        @Parameters(index = "0", paramLabel = "URI", description = "the drive")
        String uri;

        @Parameters(index = "1", paramLabel = "OBJECT", description = "the ELF object (.o)")
        Path object;

        @Option(names = "--name", required = true,
                description = "the program's name on the drive: 1 to 63 of [A-Za-z0-9._-]")
        String name;

        @Option(names = "--replace", description = "replace a program of that name")
        boolean replace;

        @Override
        public Integer call() throws Exception {
            byte[] elf = Files.readAllBytes(object);
            try (SmartSsdDevice d = DeviceArgs.open(uri)) {
                int n = d.loadProgram(name, elf, replace);
                parent.cli.out.println("loaded " + name + ": " + n + " instructions, verified");
                return ExitCodes.OK;
            }
        }
    }

    /** {@code smartssd tasklet ls URI} */
    @Command(name = "ls", mixinStandardHelpOptions = true,
            description = "List the drive's programs: name, instructions, load time (UTC).")
    static final class Ls implements Callable<Integer> {
        private static final DateTimeFormatter TIME =
                DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

        @ParentCommand
        TaskletCommand parent;

        @Parameters(index = "0", paramLabel = "URI", description = "the drive")
        String uri;

        @Override
        public Integer call() throws Exception {
            try (SmartSsdDevice d = DeviceArgs.open(uri)) {
                List<LoadedProgram> all = new java.util.ArrayList<>(d.listPrograms());
                all.sort(Comparator.comparing(LoadedProgram::name));
                for (LoadedProgram p : all) {
                    parent.cli.out.printf("%-24s %6d insns  %s%n", p.name(), p.instructions(),
                            TIME.format(p.loadedAt()));
                }
                return ExitCodes.OK;
            }
        }
    }

    /** {@code smartssd tasklet rm URI NAME...} */
    @Command(name = "rm", mixinStandardHelpOptions = true,
            description = "Remove programs from the drive. Stops at the first failure.")
    static final class Rm implements Callable<Integer> {
        @ParentCommand
        TaskletCommand parent;

        @Parameters(index = "0", paramLabel = "URI", description = "the drive")
        String uri;

        @Parameters(index = "1..*", arity = "1..*", paramLabel = "NAME",
                description = "program names")
        List<String> names;

        @Override
        public Integer call() throws Exception {
            try (SmartSsdDevice d = DeviceArgs.open(uri)) {
                for (String n : names) {
                    d.removeProgram(n);
                }
                return ExitCodes.OK;
            }
        }
    }
}
