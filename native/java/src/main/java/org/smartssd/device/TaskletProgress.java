package org.smartssd.device;

/**
 * A tasklet instance's progress as the drive reports it. {@code error} is a negative errno
 * when the state is FAILED. Times are modelled device time.
 *
 * <p>The components are the fields of SS_REPLY_PROGRESS in
 * {@code protocol/include/ss_proto_replies.h}, in its order ({@link WireDecoder}).
 */
public record TaskletProgress(TaskletState state, int error, long pagesDone, long pagesTotal,
                              long records, long outputBytes, long instructions,
                              long dramAccesses, long startedNs, long finishedNs) {
}
