package org.smartssd.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;

import org.smartssd.device.SmartAttribute;
import org.smartssd.device.SmartHealth;
import org.smartssd.device.SmartSsdDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code smartssd health URI}: SMART attributes, parsed by libatasmart, named by the drive. */
@Command(name = "health", mixinStandardHelpOptions = true,
        description = "Print SMART health: the overall verdict and every attribute with "
        + "the drive's name for it, normalised value, worst, threshold, raw value in its "
        + "unit, and libatasmart's name where it means the same ('-' where libatasmart has "
        + "none or one for another quantity).")
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
            o.printf("%3s %-26s %5s %5s %6s %-4s %-24s %s%n", "ID", "NAME", "VALUE", "WORST",
                    "THRESH", "TYPE", "RAW", "LIBATASMART");
            for (SmartAttribute a : h.attributes()) {
                o.printf("%3d %-26s %5d %5d %6s %-4s %-24s %s%n", a.id(), a.name(), a.current(),
                        a.worst(), a.thresholdValid() ? Integer.toString(a.threshold()) : "-",
                        a.prefailure() ? "pre" : "old", a.valueText(),
                        a.atasmartName().isEmpty() ? "-" : a.atasmartName());
            }
            return ExitCodes.OK;
        }
    }
}
