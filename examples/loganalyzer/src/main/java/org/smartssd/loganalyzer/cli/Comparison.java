package org.smartssd.loganalyzer.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import org.smartssd.loganalyzer.CompareTable;
import org.smartssd.loganalyzer.LogAnalyzer;
import org.smartssd.loganalyzer.Mode;
import org.smartssd.loganalyzer.Query;
import org.smartssd.loganalyzer.RunResult;

/** Runs the versions of each query over one drive file and prints the tables. */
final class Comparison {
    private Comparison() {
    }

    /** @return true when every query's versions answered alike */
    static boolean run(LogAnalyzer la, LogAnalyzer.DriveFile f, List<Query> queries,
                       List<Mode> modes, PrintStream out) throws IOException, InterruptedException {
        boolean same = true;
        for (Query q : queries) {
            List<RunResult> runs = new ArrayList<>();
            for (Mode m : modes) {
                runs.add(la.run(q, m, f));
            }
            if (!runs.get(0).modelled()) {
                throw new IOException(la.device().uri() + " has no timing and energy model (a "
                        + "real drive): compare needs an emulated drive for its modelled figures");
            }
            CompareTable.render(runs, f.path().toString()).forEach(out::println);
            out.println();
            same &= CompareTable.identical(runs);
        }
        return same;
    }
}
