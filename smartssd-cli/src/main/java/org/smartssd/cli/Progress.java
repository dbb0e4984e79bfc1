package org.smartssd.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongConsumer;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * Progress of a long step on stderr: a bar on a terminal; elsewhere (a log file, CI) one
 * line every few seconds and one at the end, never {@code \r} frames; or nothing.
 */
public final class Progress implements AutoCloseable, LongConsumer {
    /** How progress is shown. */
    public enum Mode { OFF, BAR, LINES }

    static final long LINE_INTERVAL_NS = 5_000_000_000L;

    private final ProgressBar bar;
    private final PrintStream lines;
    private final String task;
    private final long total;
    private final String unit;
    private final long unitSize;
    private final long startNs;
    private long done;
    private long lastLineNs;

    private Progress(ProgressBar bar, PrintStream lines, String task, long total, String unit,
                     long unitSize) {
        this.bar = bar;
        this.lines = lines;
        this.task = task;
        this.total = total;
        this.unit = unit;
        this.unitSize = unitSize;
        this.startNs = System.nanoTime();
        this.lastLineNs = startNs;
    }

    /** Progress wanted or not; a bar only when stderr is a terminal. */
    public static Mode mode(boolean wanted, boolean terminal) {
        return !wanted ? Mode.OFF : terminal ? Mode.BAR : Mode.LINES;
    }

    /** As {@link #mode(boolean, boolean)}, with this JVM's console deciding. */
    public static Mode mode(boolean wanted) {
        return mode(wanted, System.console() != null);
    }

    /**
     * @param unit     the unit shown, e.g. {@code "MiB"}
     * @param unitSize counts per unit
     */
    public static Progress start(String task, long total, String unit, long unitSize, Mode mode,
                                 PrintStream err) {
        switch (mode) {
            case BAR:
                return new Progress(new ProgressBarBuilder().setTaskName(task)
                        .setInitialMax(total).setUnit(" " + unit, unitSize)
                        .setUpdateIntervalMillis(200)
                        .setConsumer(new ConsoleProgressBarConsumer(err, 100)).build(),
                        null, task, total, unit, unitSize);
            case LINES:
                return new Progress(null, err, task, total, unit, unitSize);
            default:
                return new Progress(null, null, task, total, unit, unitSize);
        }
    }

    /** Counts done so far. */
    public void stepTo(long count) {
        done = count;
        if (bar != null) {
            bar.stepTo(count);
        } else if (lines != null) {
            long now = System.nanoTime();
            if (now - lastLineNs >= LINE_INTERVAL_NS) {
                lastLineNs = now;
                lines.println(line(""));
            }
        }
    }

    @Override
    public void accept(long count) {
        stepTo(count);
    }

    public void stepBy(long count) {
        stepTo(done + count);
    }

    private String line(String suffix) {
        int pct = total > 0 ? (int) Math.min(100, done * 100 / total) : 100;
        return String.format(Locale.ROOT, "%s: %d%% (%.1f of %.1f %s)%s", task, pct,
                (double) done / unitSize, (double) total / unitSize, unit, suffix);
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        } else if (lines != null) {
            lines.println(line(String.format(Locale.ROOT, " in %.1f s",
                    (System.nanoTime() - startNs) / 1e9)));
        }
    }
}
