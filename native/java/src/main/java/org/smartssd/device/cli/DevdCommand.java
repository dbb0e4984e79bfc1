package org.smartssd.device.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.smartssd.device.Devd;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code smartssd devd ARGS...}: run the smartssd-devd daemon in the foreground. */
@Command(name = "devd", description = "Run the emulated-drive daemon smartssd-devd in the "
        + "foreground, passing ARGS to it (e.g. --image /path/dev0.img --socket "
        + "/path/dev0.sock; see 'smartssd devd --help'). Its exit status is returned.")
final class DevdCommand implements Callable<Integer> {
    @ParentCommand
    SmartSsdCli cli;

    @Parameters(paramLabel = "ARGS", arity = "0..*", description = "smartssd-devd arguments")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        Path bin = Devd.locate().orElseThrow(() -> new MissingBinaryException(Devd.BINARY
                + " not found next to the native build (native/target/cmake-release), in $"
                + Devd.ENV + " or on PATH; build it with 'mvn -B install -DskipTests -pl native'"));
        List<String> cmd = new ArrayList<>();
        cmd.add(bin.toString());
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        Runtime.getRuntime().addShutdownHook(new Thread(p::destroy));
        return p.waitFor();
    }
}
