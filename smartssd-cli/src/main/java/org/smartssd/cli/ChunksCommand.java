package org.smartssd.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;

import org.smartssd.device.ChunkGeometry;
import org.smartssd.device.ChunkInfo;
import org.smartssd.device.ChunkedDrive;
import org.smartssd.device.SmartSsdDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code smartssd chunks URI [--group G] [--pu P]}: the chunks (zones) and their state. */
@Command(name = "chunks", mixinStandardHelpOptions = true,
        description = "List an open-channel drive's chunks (a zoned drive's zones): group, "
        + "parallel unit, chunk, state (FREE, OPEN, OPEN_EXPLICIT, CLOSED, FULL, OFFLINE), "
        + "first LBA, write pointer (sectors written), capacity and wear (erases).")
final class ChunksCommand implements Callable<Integer> {
    /** Chunks one report asks for. */
    private static final int BATCH = 128;

    @ParentCommand
    SmartSsdCli cli;

    @Parameters(index = "0", paramLabel = "URI", description = "the drive")
    String uri;

    @Option(names = "--group", paramLabel = "G", description = "only group G")
    Integer group;

    @Option(names = "--pu", paramLabel = "P", description = "only parallel unit P (of each "
            + "group listed)")
    Integer pu;

    @Override
    public Integer call() throws Exception {
        try (SmartSsdDevice d = DeviceArgs.open(uri)) {
            ChunkedDrive c = d.chunked();
            ChunkGeometry g = c.geometry();
            check("--group", group, g.groups());
            check("--pu", pu, g.pus());
            PrintStream o = cli.out;
            o.printf("%5s %4s %6s %-13s %12s %8s %8s %6s%n", "GROUP", "PU", "CHUNK", "STATE",
                    "SLBA", "WRITTEN", "CAPACITY", "WEAR");
            for (long gr = 0; gr < g.groups(); gr++) {
                for (long p = 0; p < g.pus(); p++) {
                    if ((group != null && gr != group) || (pu != null && p != pu)) {
                        continue;
                    }
                    list(o, c, g, gr, p);
                }
            }
            return ExitCodes.OK;
        }
    }

    private static void list(PrintStream o, ChunkedDrive c, ChunkGeometry g, long gr, long p)
            throws java.io.IOException {
        long first = g.index(gr, p, 0);
        for (long k = 0; k < g.chunks(); k += BATCH) {
            List<ChunkInfo> batch = c.report(first + k, (int) Math.min(BATCH, g.chunks() - k));
            for (int i = 0; i < batch.size(); i++) {
                ChunkInfo ch = batch.get(i);
                o.printf("%5d %4d %6d %-13s %12d %8d %8d %6d%n", gr, p, k + i, ch.chunkState(),
                        ch.slba(), ch.written(), ch.capacity(), ch.wear());
            }
        }
    }

    private static void check(String option, Integer v, long limit) {
        if (v != null && (v < 0 || v >= limit)) {
            throw new IllegalArgumentException(option + " " + v + ": the drive has " + limit
                    + " (0 to " + (limit - 1) + ")");
        }
    }
}
