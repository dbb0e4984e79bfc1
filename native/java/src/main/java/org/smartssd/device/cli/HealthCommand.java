package org.smartssd.device.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;

import org.smartssd.device.SmartAttribute;
import org.smartssd.device.SmartHealth;
import org.smartssd.device.SmartSsdDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code smartssd health URI}: SMART attributes as libatasmart names and values them. */
@Command(name = "health", mixinStandardHelpOptions = true,
        description = "Print SMART health: the overall verdict and every "
        + "attribute with libatasmart's name, normalised value, worst, threshold and value.")
final class HealthCommand implements Callable<Integer> {
    @ParentCommand
    SmartSsdCli cli;

    @Parameters(index = "0", paramLabel = "URI", description = "the drive")
    String uri;

    @Override
    public Integer call() throws Exception {
        try (SmartSsdDevice d = DeviceArgs.open(uri)) {
            SmartHealth h = d.health();
            PrintStream o = cli.out;
            o.printf("overall: %s%n", h.overall());
            o.printf("status:  %s%n", h.statusGood() ? "good" : "FAILING");
            o.printf("power-on: %d ms%n", h.powerOnMs());
            o.printf("bad sectors: %d%n", h.badSectors());
            o.printf("%3s %-28s %5s %5s %6s %-4s %-16s %s%n", "ID", "NAME", "VALUE", "WORST",
                    "THRESH", "TYPE", "PRETTY", "RAW");
            for (SmartAttribute a : h.attributes()) {
                o.printf("%3d %-28s %5d %5d %6s %-4s %-16s %d%n", a.id(), a.name(), a.current(),
                        a.worst(), a.thresholdValid() ? Integer.toString(a.threshold()) : "-",
                        a.prefailure() ? "pre" : "old", a.prettyText(), a.raw());
            }
            return ExitCodes.OK;
        }
    }
}
