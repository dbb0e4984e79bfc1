package org.smartssd.loganalyzer.cli;

import java.io.PrintStream;
import java.util.function.LongConsumer;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/** A progress bar on stderr counting entries, or nothing when progress is off. */
final class Progress implements AutoCloseable, LongConsumer {
    private final ProgressBar bar;

    private Progress(ProgressBar bar) {
        this.bar = bar;
    }

    static Progress start(String task, long total, boolean on, PrintStream err) {
        if (!on) {
            return new Progress(null);
        }
        return new Progress(new ProgressBarBuilder().setTaskName(task).setInitialMax(total)
                .setUnit(" k entries", 1000).setUpdateIntervalMillis(200)
                .setConsumer(new ConsoleProgressBarConsumer(err, 100)).build());
    }

    /** Entries done so far. */
    @Override
    public void accept(long done) {
        if (bar != null) {
            bar.stepTo(done);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
