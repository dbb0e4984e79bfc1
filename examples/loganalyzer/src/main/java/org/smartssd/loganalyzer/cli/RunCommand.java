package org.smartssd.loganalyzer.cli;

import java.util.Locale;
import java.util.concurrent.Callable;

import org.smartssd.cli.Progress;
import org.smartssd.loganalyzer.Engine;
import org.smartssd.loganalyzer.LogAnalyzer;
import org.smartssd.loganalyzer.Mode;
import org.smartssd.loganalyzer.Query;
import org.smartssd.loganalyzer.RunResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code loganalyzer run}: one version of one query; one line per region on stdout. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Load a trace onto the drive and run one version of a query over it. "
                + "Prints one line per region.")
final class RunCommand implements Callable<Integer> {
    @Option(names = {"-q", "--query"}, required = true, paramLabel = "q1|q2",
            description = "q1: accesses per region; q2: top 5 file types per region")
    String query;

    @Option(names = {"-m", "--mode"}, required = true,
            paramLabel = "MODE", description = "which version: host-normal, host-optimized or "
                    + "device (engine mapreduce); no-pushdown or pushdown (engine spark)")
    String mode;

    @Option(names = {"-e", "--engine"}, defaultValue = "mapreduce", paramLabel = "mapreduce|spark",
            description = "mapreduce: Hadoop jobs (default); spark: Spark SQL over the drive "
                    + "through the smartssd connector, local[2] in this JVM")
    String engine;

    @Option(names = "--entry-size", paramLabel = "BYTES",
            description = "bytes per entry on the drive: each record is padded to it (default: "
                    + "the input's entry size)")
    Integer entrySize;

    @Option(names = "--stats", description = "print the run's modelled figures on stderr")
    boolean stats;

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
        Query q = parseQuery(query);
        Mode m = Mode.ofCliName(mode, Engine.ofCliName(engine));
        int es = entrySize != null ? entrySize : in.inputEntrySize;
        long n = in.countEntries();
        try (LogAnalyzer la = drive.open(n * es)) {
            LogAnalyzer.DriveFile f;
            try (Progress p = Progress.start("load", n, "k entries", 1000,
                    Progress.mode(progress), System.err)) {
                f = la.load(in.input, in.inputEntrySize, es, p);
            }
            RunResult r = la.run(q, m, f);
            r.answer().lines().forEach(System.out::println);
            if (stats) {
                System.err.printf(Locale.ROOT, "%s %s over %d %d-byte entries: wall %.3f s, "
                                + "modelled %.6f s (link %.6f, host cpu %.6f, isp %.6f), "
                                + "drive clock %.6f s, link %d bytes, host %.4f J, device %.6f J%n",
                        q, m.cliName(), r.records(), es, r.wallNs() / 1e9, r.modelledNs() / 1e9,
                        r.linkNs() / 1e9, r.hostCpuNs() / 1e9, r.ispNs() / 1e9,
                        r.driveClockNs() / 1e9, r.linkBytes(),
                        r.energy().hostJoules(), r.energy().deviceJoules());
            }
        }
        return LogAnalyzerCli.OK;
    }

    static Query parseQuery(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "q1" -> Query.Q1;
            case "q2" -> Query.Q2;
            default -> throw new IllegalArgumentException("unknown query '" + s
                    + "': use q1 or q2");
        };
    }
}
