package org.smartssd.device;

/** The drive's own counters: FTL activity and wear. {@code powerOnNs} is modelled time. */
public record DriveCounters(long hostPageReads, long hostPageWrites, long nandPageReads,
                            long nandPageWrites, long blockErases, long gcPageMoves,
                            long retiredBlocks, long freeBlocks, long minEraseCount,
                            long maxEraseCount, long avgEraseCount,
                            long writeAmplificationMilli, long powerOnNs) {
}
