package org.smartssd.loganalyzer.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.zip.GZIPOutputStream;

import org.smartssd.cli.Progress;
import org.smartssd.loganalyzer.TraceGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code loganalyzer gen}: a synthetic WorldCup98 trace. */
@Command(name = "gen", mixinStandardHelpOptions = true,
        description = "Write a synthetic WorldCup98 trace in the trace's binary format (Zipf "
                + "object popularity, bursty arrivals, web-like type/status/region mixes), "
                + "entries padded to --entry-size. The same seed gives the same bytes; a name "
                + "ending in .gz is written gzip-compressed, as the real trace ships.")
final class GenCommand implements Callable<Integer> {
    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE",
            description = "where to write (FILE.gz: gzip)")
    Path output;

    @Option(names = {"-n", "--records"}, defaultValue = "1000000",
            description = "entries to write (default ${DEFAULT-VALUE}; Kang used 7000000)")
    long records;

    @Option(names = "--seed", defaultValue = "1",
            description = "random seed (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--entry-size", defaultValue = "20", paramLabel = "BYTES",
            description = "bytes per entry: 20 is the real trace's, 32/64/128/256 Kang's "
                    + "padded sizes (default ${DEFAULT-VALUE})")
    int entrySize;

    @Option(names = "--objects", defaultValue = "20000",
            description = "distinct objects (default ${DEFAULT-VALUE})")
    int objects;

    @Option(names = "--zipf", defaultValue = "1.0",
            description = "Zipf exponent of object popularity (default ${DEFAULT-VALUE})")
    double zipf;

    @Option(names = "--no-progress", negatable = true, defaultValue = "true",
            description = "show progress on stderr: a bar on a terminal, a line every few "
                    + "seconds elsewhere (default on)")
    boolean progress;

    @Override
    public Integer call() throws IOException {
        TraceGenerator.Options d = TraceGenerator.Options.of(records, seed, entrySize);
        TraceGenerator g = new TraceGenerator(new TraceGenerator.Options(records, seed,
                entrySize, objects, zipf, d.clients(), d.clientSkew(), d.startTime()));
        if (output.getParent() != null) {
            Files.createDirectories(output.getParent());
        }
        boolean gz = output.getFileName().toString().endsWith(".gz");
        try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(output), 1 << 20);
             OutputStream o = gz ? new GZIPOutputStream(file, 1 << 16) : file;
             Progress p = Progress.start("gen", records, "k entries", 1000,
                    Progress.mode(progress), System.err)) {
            g.write(o, p);
        }
        System.err.printf("wrote %d entries of %d bytes to %s%s%n", records, entrySize, output,
                gz ? " (gzip)" : "");
        return LogAnalyzerCli.OK;
    }
}
