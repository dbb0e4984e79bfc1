package org.smartssd.loganalyzer.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;

import org.smartssd.device.SmartSsdError;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bin/loganalyzer}: generate traces, run one version of a query, compare all three. */
@Command(name = "loganalyzer", mixinStandardHelpOptions = true, version = "loganalyzer 0.1.0",
        description = "The WorldCup98 log analyzer of Kang (2014) section 6.5.3 on a Smart SSD, "
                + "real or emulated: Q1 accesses per region, Q2 top 5 file types per region, "
                + "each as host-normal, host-optimized and device versions.",
        subcommands = {GenCommand.class, RunCommand.class, CompareCommand.class,
            DemoCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Exit codes:",
            "  0  success",
            "  1  usage: bad command line or argument",
            "  2  no such local file",
            "  3  drive error (busy, full, tasklet failed, transport)",
            "  5  local I/O error (unreadable or truncated trace)",
            "  7  the versions answered differently"})
public final class LogAnalyzerCli implements Runnable {
    static final int OK = 0;
    static final int USAGE = 1;
    static final int NOT_FOUND = 2;
    static final int DRIVE = 3;
    static final int LOCAL_IO = 5;
    static final int ANSWERS_DIFFER = 7;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "name a command: gen, run, compare or demo");
    }

    /** The command line with this tool's error handling. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new LogAnalyzerCli());
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            PrintWriter err = cmd.getErr();
            err.println("loganalyzer " + cmd.getCommandName() + ": " + message(e));
            err.flush();
            return exitCode(e);
        });
        cl.setParameterExceptionHandler((e, args) -> {
            PrintWriter err = e.getCommandLine().getErr();
            err.println("loganalyzer: " + e.getMessage());
            err.println("see: loganalyzer " + (e.getCommandLine().getParent() == null ? ""
                    : e.getCommandLine().getCommandName() + " ") + "--help");
            err.flush();
            return USAGE;
        });
        return cl;
    }

    static int exitCode(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof NoSuchFileException || t instanceof FileNotFoundException) {
                return NOT_FOUND;
            }
            if (t instanceof SmartSsdError) {
                return DRIVE;
            }
            if (t instanceof IllegalArgumentException) {
                return USAGE;
            }
        }
        return e instanceof IOException ? LOCAL_IO : DRIVE;
    }

    static String message(Throwable e) {
        String m = e.getMessage();
        if (e instanceof NoSuchFileException n) {
            return "no such file: " + n.getFile();
        }
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
