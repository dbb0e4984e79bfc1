package org.smartssd.device.cli;

import java.io.PrintStream;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/** A progress bar on stderr for long copies, or nothing when it is not wanted. */
final class CopyProgress implements AutoCloseable {
    /** Copies shorter than this finish before a bar would be of use. */
    static final long MIN_BYTES = 4L << 20;

    private final ProgressBar bar;

    private CopyProgress(ProgressBar bar) {
        this.bar = bar;
    }

    /**
     * @param forced --progress was given
     * @param tty    stderr is a terminal
     */
    static CopyProgress start(String task, long total, boolean forced, boolean tty,
                              PrintStream err) {
        if (!forced && !(tty && total >= MIN_BYTES)) {
            return new CopyProgress(null);
        }
        ProgressBar bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total)
                .setUnit("MiB", 1L << 20).setUpdateIntervalMillis(200)
                .setConsumer(new ConsoleProgressBarConsumer(err, 100)).build();
        return new CopyProgress(bar);
    }

    void advance(long bytes) {
        if (bar != null) {
            bar.stepBy(bytes);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
