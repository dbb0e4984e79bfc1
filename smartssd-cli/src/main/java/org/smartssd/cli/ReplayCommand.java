package org.smartssd.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

import org.smartssd.device.NativeBinaries;
import org.smartssd.device.Printable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code smartssd replay TRACE}: replays a block trace against a fresh emulated drive through
 * the C program smartssd-replay (tools/replay), the same replayer the buffer benchmark runs.
 * Its exit status is the command's: it uses the codes of {@link ExitCodes}.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Replay a block trace against a fresh emulated drive formatted with the "
        + "given buffer, open loop at the trace's timestamps in modelled time, and print the "
        + "average response time, hit ratios, erases, the flush-length distribution, extra "
        + "reads and NAND energy. The drive is as large as the trace's address span (or "
        + "--capacity; addresses past it fold back onto it). Formats: spc (UMass "
        + "Financial1/2, WebSearch: ASU,LBA,Size,Opcode,Timestamp), msr (MSR Cambridge CSV: "
        + "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime), disksim (DiskSim "
        + "ASCII: arrival_ms device block size flags).")
final class ReplayCommand implements java.util.concurrent.Callable<Integer> {
    static final String BINARY = "smartssd-replay";
    static final String PROPERTY = "smartssd.replay";
    static final String ENV = "SMARTSSD_REPLAY";

    enum Format { spc, msr, disksim }

    @ParentCommand
    SmartSsdCli cli;

    @Option(names = "--format", paramLabel = "FORMAT", description = "spc, msr or disksim "
            + "(default: from the file name: .spc spc, .csv msr, else disksim)")
    Format format;

    @Option(names = "--buffer", paramLabel = "POLICY", defaultValue = "hbm",
            description = "the drive's buffer: none, lru, fab, bplru, lbclock, hbm, or the "
            + "merge cache nv-wb, nv-sub, nv-sat with +cache, +prefetch or +both "
            + "(default ${DEFAULT-VALUE})")
    String buffer;

    @Option(names = "--buffer-size", paramLabel = "N", defaultValue = "1M",
            description = "the buffer's size (e.g. 1M, 16M; default ${DEFAULT-VALUE})")
    String bufferSize;

    @Option(names = "--capacity", paramLabel = "N", description = "the emulated drive's "
            + "data footprint, rounded up to a MiB (default: the trace's address span)")
    String capacity;

    @Option(names = "--asu-size", paramLabel = "N", description = "spc: lay the ASUs end to "
            + "end, each N long (whole MiB); without it only ASU 0 is accepted")
    String asuSize;

    @Option(names = "--page-size", paramLabel = "N", defaultValue = "2K",
            description = "the flash page: 2K (Gong's drive) or 4K (Smullen's); default "
            + "${DEFAULT-VALUE}")
    String pageSize;

    @Option(names = "--fua", description = "send every write with FUA (durable on completion)")
    boolean fua;

    @Option(names = "--csv", description = "print a CSV header and row instead of the report")
    boolean csv;

    @Parameters(paramLabel = "TRACE", description = "the trace file")
    Path trace;

    @Override
    public Integer call() throws Exception {
        Path bin = NativeBinaries.locate(BINARY, PROPERTY, ENV).orElseThrow(
                () -> new MissingBinaryException(BINARY + " not found next to the native build "
                + "(native/target/cmake-release), in $" + ENV + " or on PATH; build it with "
                + "'mvn -B package -DskipTests -pl native'"));
        List<String> cmd = new ArrayList<>(List.of(bin.toString(), "--" + format().name(),
                trace.toString(), "--policy", buffer, "--buffer-bytes",
                Long.toString(Sizes.parse(bufferSize)), "--dir",
                System.getProperty("java.io.tmpdir")));
        if (capacity != null) {
            cmd.addAll(List.of("--footprint-mb", Long.toString(mebibytesUp(capacity))));
        }
        if (asuSize != null) {
            long asu = Sizes.parse(asuSize);
            if (asu % (1L << 20) != 0) {
                throw new IllegalArgumentException("--asu-size '" + asuSize
                        + "' is not a whole number of MiB");
            }
            cmd.addAll(List.of("--asu-mb", Long.toString(asu >> 20)));
        }
        long page = Sizes.parse(pageSize);
        if (page != 2048 && page != 4096) {
            throw new IllegalArgumentException("--page-size '" + pageSize + "': 2K or 4K");
        }
        cmd.addAll(List.of("--page-kb", Long.toString(page >> 10)));
        if (fua) {
            cmd.add("--fua");
        }
        cmd.add(csv ? "--header" : "--report");
        Process p = new ProcessBuilder(cmd).start();
        p.getOutputStream().close();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(
                () -> readAll(p.getErrorStream()));
        cli.out.print(readAll(p.getInputStream()));
        int rc = p.waitFor();
        // its messages name the trace file as given: escaped, line by line
        err.join().lines().forEach(l -> cli.err.println(Printable.escape(l)));
        cli.out.flush();
        return rc;
    }

    private Format format() {
        if (format != null) {
            return format;
        }
        String name = trace.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".spc") ? Format.spc : name.endsWith(".csv") ? Format.msr
                : Format.disksim;
    }

    private static long mebibytesUp(String size) {
        long bytes = Sizes.parse(size);
        return (bytes + (1L << 20) - 1) >> 20;
    }

    private static String readAll(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
