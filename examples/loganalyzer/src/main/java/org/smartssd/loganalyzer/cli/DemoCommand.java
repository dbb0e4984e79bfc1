package org.smartssd.loganalyzer.cli;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.zip.GZIPOutputStream;

import org.smartssd.cli.Progress;
import org.smartssd.loganalyzer.CompareTable;
import org.smartssd.loganalyzer.Engine;
import org.smartssd.loganalyzer.LogAnalyzer;
import org.smartssd.loganalyzer.Query;
import org.smartssd.loganalyzer.TraceGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loganalyzer demo}: everything end to end on an embedded emulated drive in a temp
 * folder: generate a gzip trace in the real format, load it at Kang's entry sizes, compare.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Generate a small WorldCup98-format trace, load it onto an embedded "
                + "emulated drive (kang-smartssd) at 32, 64, 128 and 256-byte entries and "
                + "compare the three versions of Q1 and Q2. Everything lives in a temp folder.")
final class DemoCommand implements Callable<Integer> {
    @Option(names = {"-n", "--records"}, defaultValue = "100000",
            description = "entries to generate (default ${DEFAULT-VALUE})")
    long records;

    @Option(names = "--seed", defaultValue = "1998",
            description = "seed (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--entry-size", split = ",", paramLabel = "BYTES",
            description = "entry sizes (default 32,64,128,256)")
    List<Integer> entrySizes = List.of(32, 64, 128, 256);

    @Option(names = "--no-progress", negatable = true, defaultValue = "true",
            description = "show progress on stderr: a bar on a terminal, a line every few "
                    + "seconds elsewhere (default on)")
    boolean progress;

    @Override
    public Integer call() throws Exception {
        Path dir = TempDirs.create();
        Path trace = dir.resolve("wc_demo.gz");
        System.out.printf("loganalyzer demo: %d generated entries (seed %d) in %s%n", records,
                seed, trace);
        try (OutputStream o = new GZIPOutputStream(new BufferedOutputStream(
                Files.newOutputStream(trace), 1 << 20));
             Progress p = Progress.start("gen", records, "k entries", 1000,
                    Progress.mode(progress), System.err)) {
            new TraceGenerator(TraceGenerator.Options.of(records, seed, 20)).write(o, p);
        }
        int max = entrySizes.stream().mapToInt(Integer::intValue).max().orElse(32);
        boolean same = true;
        try (LogAnalyzer la = LogAnalyzer.embedded(dir, LogAnalyzer.capacityFor(records * max),
                null)) {
            System.out.println("drive: " + la.device().uri() + " (embedded, kang-smartssd)");
            System.out.println();
            for (int es : entrySizes) {
                LogAnalyzer.DriveFile f;
                try (Progress p = Progress.start("load " + es + " B", records, "k entries",
                        1000, Progress.mode(progress), System.err)) {
                    f = la.load(trace, 20, es, p);
                }
                same &= Comparison.run(la, f, List.of(Query.Q1, Query.Q2),
                        Engine.MAPREDUCE.modes(), System.out);
                la.remove(f);
            }
        }
        CompareTable.legend().forEach(System.out::println);
        return same ? LogAnalyzerCli.OK : LogAnalyzerCli.ANSWERS_DIFFER;
    }
}
