package org.smartssd.device;

import java.nio.ByteBuffer;
import java.util.List;

/** The drive's own counters: FTL activity and wear. {@code powerOnNs} is modelled time. */
public record DriveCounters(long hostPageReads, long hostPageWrites, long nandPageReads,
                            long nandPageWrites, long blockErases, long gcPageMoves,
                            long retiredBlocks, long freeBlocks, long minEraseCount,
                            long maxEraseCount, long avgEraseCount,
                            long writeAmplificationMilli, long powerOnNs) {
    // COUNTERS' reply, struct ss_wire_counters (SS_REPLY_COUNTERS in ss_proto_replies.h)
    static final int HOST_PAGE_READS = 0;
    static final int HOST_PAGE_WRITES = 8;
    static final int NAND_PAGE_READS = 16;
    static final int NAND_PAGE_WRITES = 24;
    static final int BLOCK_ERASES = 32;
    static final int GC_PAGE_MOVES = 40;
    static final int RETIRED_BLOCKS = 48;
    static final int FREE_BLOCKS = 52;
    static final int MIN_ERASE_COUNT = 56;
    static final int MAX_ERASE_COUNT = 60;
    static final int AVG_ERASE_COUNT = 64;
    static final int WRITE_AMPLIFICATION_MILLI = 68;
    static final int POWER_ON_NS = 72;

    static final List<WireField> FIELDS = List.of(
            WireField.u64("host_page_reads", HOST_PAGE_READS),
            WireField.u64("host_page_writes", HOST_PAGE_WRITES),
            WireField.u64("nand_page_reads", NAND_PAGE_READS),
            WireField.u64("nand_page_writes", NAND_PAGE_WRITES),
            WireField.u64("block_erases", BLOCK_ERASES),
            WireField.u64("gc_page_moves", GC_PAGE_MOVES),
            WireField.u32("retired_blocks", RETIRED_BLOCKS),
            WireField.u32("free_blocks", FREE_BLOCKS),
            WireField.u32("min_erase_count", MIN_ERASE_COUNT),
            WireField.u32("max_erase_count", MAX_ERASE_COUNT),
            WireField.u32("avg_erase_count", AVG_ERASE_COUNT),
            WireField.u32("write_amplification_milli", WRITE_AMPLIFICATION_MILLI),
            WireField.u64("power_on_ns", POWER_ON_NS));

    /** Decodes the reply's wire bytes at b's start. */
    static DriveCounters decode(ByteBuffer b) {
        ByteBuffer le = WireField.littleEndian(b);
        return new DriveCounters(le.getLong(HOST_PAGE_READS), le.getLong(HOST_PAGE_WRITES),
                le.getLong(NAND_PAGE_READS), le.getLong(NAND_PAGE_WRITES),
                le.getLong(BLOCK_ERASES), le.getLong(GC_PAGE_MOVES),
                WireField.u32(le, RETIRED_BLOCKS), WireField.u32(le, FREE_BLOCKS),
                WireField.u32(le, MIN_ERASE_COUNT), WireField.u32(le, MAX_ERASE_COUNT),
                WireField.u32(le, AVG_ERASE_COUNT), WireField.u32(le, WRITE_AMPLIFICATION_MILLI),
                le.getLong(POWER_ON_NS));
    }
}
