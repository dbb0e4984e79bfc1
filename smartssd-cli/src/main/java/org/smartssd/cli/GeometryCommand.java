package org.smartssd.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;

import org.smartssd.device.ChunkGeometry;
import org.smartssd.device.SmartSsdDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code smartssd geometry URI}: an open-channel or zoned drive's geometry. */
@Command(name = "geometry", mixinStandardHelpOptions = true,
        description = "Print an open-channel or zoned drive's geometry (native/PROTOCOL.md "
        + "4.8): its interface, groups (channels), parallel units (dies) per group, chunks "
        + "(erase blocks) per unit, sectors per chunk, the minimum and optimal write sizes, "
        + "the LBA stride of chunks and the chunks offline. An FTL drive has none: "
        + "'smartssd format --interface' makes one.")
final class GeometryCommand implements Callable<Integer> {
    @ParentCommand
    SmartSsdCli cli;

    @Parameters(index = "0", paramLabel = "URI", description = "the drive")
    String uri;

    @Override
    public Integer call() throws Exception {
        try (SmartSsdDevice d = DeviceArgs.open(uri)) {
            ChunkGeometry g = d.chunked().geometry();
            PrintStream o = cli.out;
            o.printf("interface: %s%n", g.driveInterface().word());
            o.printf("groups: %d%n", g.groups());
            o.printf("parallel units per group: %d%n", g.pus());
            o.printf("chunks per parallel unit: %d%n", g.chunks());
            o.printf("chunks: %d (%d offline)%n", g.totalChunks(), g.offlineChunks());
            o.printf("sector: %d bytes%n", g.sectorBytes());
            o.printf("sectors per chunk: %d%n", g.chunkSectors());
            o.printf("minimum write: %d sectors%n", g.wsMin());
            o.printf("optimal write: %d sectors%n", g.wsOpt());
            o.printf("chunk LBA stride: %d sectors%n", g.zoneSectors());
            o.printf("rated erases per chunk: %d%n", g.endurance());
            return ExitCodes.OK;
        }
    }
}
