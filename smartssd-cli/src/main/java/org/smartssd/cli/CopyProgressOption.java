package org.smartssd.cli;

import picocli.CommandLine.Option;

/** {@code --progress} of put and get, and when a copy shows progress without it. */
final class CopyProgressOption {
    /** Copies shorter than this finish before a bar would be of use. */
    static final long MIN_BYTES = 4L << 20;

    @Option(names = "--progress", description = "show progress even for a short copy, and when "
            + "stderr is not a terminal (then as a line every few seconds)")
    boolean forced;

    /** A bar on a terminal for copies of 4 MiB and more; lines elsewhere only if asked. */
    Progress.Mode mode(long bytes, boolean terminal) {
        return forced || (terminal && bytes >= MIN_BYTES) ? Progress.mode(true, terminal)
                : Progress.Mode.OFF;
    }
}
