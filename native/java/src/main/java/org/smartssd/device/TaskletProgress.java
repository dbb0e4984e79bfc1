package org.smartssd.device;

/**
 * A tasklet instance's progress as the drive reports it. {@code error} is a negative errno
 * when the state is FAILED. Times are modelled device time.
 */
public record TaskletProgress(TaskletState state, int error, long pagesDone, long pagesTotal,
                              long records, long outputBytes, long instructions,
                              long dramAccesses, long startedNs, long finishedNs) {
    static final int SLOTS = 10;
}
