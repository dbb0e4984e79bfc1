package org.smartssd.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.smartssd.device.Devd;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code smartssd devd ARGS...}: run the smartssd-devd daemon in the foreground. */
@Command(name = "devd", mixinStandardHelpOptions = true,
        description = "Run the emulated-drive daemon smartssd-devd in the "
        + "foreground, passing ARGS to it (e.g. --image /path/dev0.img --socket "
        + "/path/dev0.sock; 'smartssd devd -- --help' lists the daemon's own options). Its "
        + "exit status is returned. "
        + "With --wait, the daemon is started in the background instead: the command returns "
        + "once the socket accepts connections (the daemon's readiness signal) and prints its "
        + "URI and pid.")
final class DevdCommand implements Callable<Integer> {
    @ParentCommand
    SmartSsdCli cli;

    @Option(names = "--wait", description = "start the daemon in the background and return "
            + "once it is ready")
    boolean background;

    @Option(names = "--timeout", defaultValue = "60", paramLabel = "SECONDS",
            description = "with --wait: how long to wait for readiness (default ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Parameters(paramLabel = "ARGS", arity = "0..*", description = "smartssd-devd arguments")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        Path bin = Devd.locate().orElseThrow(() -> new MissingBinaryException(Devd.BINARY
                + " not found next to the native build (native/target/cmake-release), in $"
                + Devd.ENV + " or on PATH; build it with 'mvn -B install -DskipTests -pl native'"));
        if (background) {
            Devd d = Devd.start(args, Duration.ofSeconds(timeoutSeconds), true);
            cli.out.println(d.uri() + " pid " + d.process().pid());
            return ExitCodes.OK;
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(bin.toString());
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        Runtime.getRuntime().addShutdownHook(new Thread(p::destroy));
        return p.waitFor();
    }
}
