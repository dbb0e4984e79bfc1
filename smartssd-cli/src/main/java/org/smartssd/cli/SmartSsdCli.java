package org.smartssd.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

import org.smartssd.device.Printable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code smartssd}: format, serve and use Smart SSDs from the shell. Messages go to stderr;
 * exit codes are in {@link ExitCodes} and in {@code --help}.
 */
@Command(name = "smartssd", mixinStandardHelpOptions = true, version = "smartssd 0.1.0",
        description = "Format, serve and use Smart SSDs (real or emulated). A drive is named by "
                + "a URI: emu:/path/dev0.img (in this process), unix:/path/dev0.sock "
                + "(served by smartssd devd) or sg:/dev/sdX (a real drive).",
        subcommands = {FormatCommand.class, DevdCommand.class, InfoCommand.class,
            HealthCommand.class, PutCommand.class, GetCommand.class, LsCommand.class,
            RmCommand.class, TaskletCommand.class, ReplayCommand.class, GeometryCommand.class,
            ChunksCommand.class, BlkCommand.class,
            CommandLine.HelpCommand.class},
        footer = ExitCodes.HELP)
public final class SmartSsdCli implements Runnable {
    @Spec
    CommandSpec spec;

    final PrintStream out;
    final PrintStream err;
    final boolean errIsTerminal;

    SmartSsdCli(PrintStream out, PrintStream err, boolean errIsTerminal) {
        this.out = out;
        this.err = err;
        this.errIsTerminal = errIsTerminal;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }

    /** Runs the command line in this JVM. Returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, false);
    }

    static int run(String[] args, PrintStream out, PrintStream err, boolean errIsTerminal) {
        SmartSsdCli cli = new SmartSsdCli(out, err, errIsTerminal);
        CommandLine cl = new CommandLine(cli);
        cl.setOut(new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        cl.setErr(new PrintWriter(new java.io.OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        CommandLine devd = cl.getSubcommands().get("devd");
        devd.setUnmatchedOptionsArePositionalParams(true);
        devd.setStopAtPositional(true);
        cl.setParameterExceptionHandler((ex, a) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("smartssd: " + Printable.escape(ex.getMessage()));
            c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help'.");
            return ExitCodes.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            c.getErr().println(c.getCommandSpec().qualifiedName() + ": "
                    + Printable.escape(message(ex)));
            return ExitCodes.of(ex);
        });
        return cl.execute(args);
    }

    private static String message(Throwable t) {
        String m = t.getMessage();
        return m == null || m.isBlank() ? t.toString() : m;
    }

    public static void main(String[] args) {
        int rc = run(args, System.out, System.err, System.console() != null);
        System.out.flush();
        System.exit(rc);
    }
}
