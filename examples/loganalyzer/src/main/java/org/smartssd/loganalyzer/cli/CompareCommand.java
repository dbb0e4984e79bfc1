package org.smartssd.loganalyzer.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.smartssd.cli.Progress;
import org.smartssd.loganalyzer.CompareTable;
import org.smartssd.loganalyzer.Engine;
import org.smartssd.loganalyzer.LogAnalyzer;
import org.smartssd.loganalyzer.Mode;
import org.smartssd.loganalyzer.Query;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code loganalyzer compare}: the versions of an engine, side by side. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Load a trace onto the drive at each entry size and run the versions of "
                + "each query over the same file: host-normal, host-optimized and device "
                + "(engine mapreduce), or the device job, Spark SQL without pushdown and with "
                + "it (engine spark): answers, wall time, modelled time, link bytes, host and "
                + "device joules.")
final class CompareCommand implements Callable<Integer> {
    @Option(names = {"-q", "--query"}, paramLabel = "q1|q2", split = ",",
            description = "queries to compare (default q1,q2)")
    List<String> queries = List.of("q1", "q2");

    @Option(names = "--entry-size", paramLabel = "BYTES", split = ",",
            description = "entry sizes on the drive (default 32,256)")
    List<Integer> entrySizes = List.of(32, 256);

    @Option(names = {"-e", "--engine"}, defaultValue = "mapreduce", paramLabel = "mapreduce|spark",
            description = "mapreduce (default), or spark: Spark SQL over the drive without and "
                    + "with pushdown, against the MapReduce device version")
    String engine;

    @Option(names = "--no-progress", negatable = true, defaultValue = "true",
            description = "show progress on stderr: a bar on a terminal, a line every few "
                    + "seconds elsewhere (default on)")
    boolean progress;

    @Mixin
    InputOptions in;

    @Mixin
    DriveOptions drive;

    @Override
    public Integer call() throws Exception {
        List<Query> qs = new ArrayList<>();
        for (String q : queries) {
            qs.add(RunCommand.parseQuery(q));
        }
        long n = in.countEntries();
        int max = entrySizes.stream().mapToInt(Integer::intValue).max().orElse(32);
        List<Mode> modes = Engine.ofCliName(engine) == Engine.SPARK
                ? List.of(Mode.DEVICE, Mode.SPARK_NO_PUSHDOWN, Mode.SPARK_PUSHDOWN)
                : Engine.MAPREDUCE.modes();
        boolean same = true;
        try (LogAnalyzer la = drive.open(n * max)) {
            for (int es : entrySizes) {
                LogAnalyzer.DriveFile f;
                try (Progress p = Progress.start("load " + es + " B", n, "k entries", 1000,
                    Progress.mode(progress), System.err)) {
                    f = la.load(in.input, in.inputEntrySize, es, p);
                }
                same &= Comparison.run(la, f, qs, modes, System.out);
                la.remove(f);
            }
        }
        CompareTable.legend().forEach(System.out::println);
        return same ? LogAnalyzerCli.OK : LogAnalyzerCli.ANSWERS_DIFFER;
    }
}
