package org.smartssd.device;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The emulated drive's timing and energy model: every figure follows from counted operations
 * and the drive's profile, never from host wall-clock. Energies are in nanojoules.
 *
 * @param hostNowNs the host clock: when the host's next command would arrive (the device
 *               clock {@code nowNs} may be ahead of it with background work, which host
 *               commands do not wait for)
 * @param prices the profile's prices of a tasklet's own counted work, with which the drive's
 *               energy ledger apportions its energy among tasks ({@link SharedDriveEnergy})
 */
public record ModelCounters(long pageReads, long pagePrograms, long blockErases,
                            long eraseFailures, long programFailures, long syncs,
                            long ruleViolations, long failedBlocks, long bytesRead,
                            long bytesProgrammed, long hostCommands, long linkBytesIn,
                            long linkBytesOut, long ispInstructions, long ispDramAccesses,
                            long ispPages, long dieBusyNs, long channelBusyNs, long linkBusyNs,
                            long ispBusyNs, long nowNs, long energyNandReadNj,
                            long energyNandProgramNj, long energyNandEraseNj,
                            long energyLinkNj, long energyIspNj, long energyIdleNj,
                            long energyTotalNj, long hostNowNs, WorkPrices prices) {
    // The model counters, struct ss_wire_model (SS_REPLY_MODEL in ss_proto_replies.h); the
    // record carries the ones the host's energy accounting and the benchmarks use
    static final int PAGE_READS = 0;
    static final int PAGE_PROGRAMS = 8;
    static final int BLOCK_ERASES = 16;
    static final int ERASE_FAILURES = 24;
    static final int PROGRAM_FAILURES = 32;
    static final int SYNCS = 40;
    static final int RULE_VIOLATIONS = 48;
    static final int FAILED_BLOCKS = 56;
    static final int BYTES_READ = 64;
    static final int BYTES_PROGRAMMED = 72;
    static final int HOST_COMMANDS = 80;
    static final int LINK_BYTES_IN = 88;
    static final int LINK_BYTES_OUT = 96;
    static final int ISP_INSTRUCTIONS = 104;
    static final int ISP_DRAM_ACCESSES = 112;
    static final int ISP_PAGES = 120;
    static final int DIE_BUSY_NS = 128;
    static final int CHANNEL_BUSY_NS = 136;
    static final int LINK_BUSY_NS = 144;
    static final int ISP_BUSY_NS = 152;
    static final int NOW_NS = 160;
    static final int ENERGY_NAND_READ_NJ = 168;
    static final int ENERGY_NAND_PROGRAM_NJ = 176;
    static final int ENERGY_NAND_ERASE_NJ = 184;
    static final int ENERGY_LINK_NJ = 192;
    static final int ENERGY_ISP_NJ = 200;
    static final int ENERGY_IDLE_NJ = 208;
    static final int ENERGY_TOTAL_NJ = 216;
    static final int HOST_NOW_NS = 224;
    static final int NAND_READ_NJ = 232;
    static final int FW_PAGE_OVERHEAD_NS = 240;
    static final int ISP_PS_PER_INSTRUCTION = 248;
    static final int DRAM_ACCESS_NS = 256;
    static final int ISP_ACTIVE_MW = 264;
    static final int LINK_PJ_PER_BYTE = 272;

    static final List<WireField> FIELDS = List.of(
            WireField.u64("page_reads", PAGE_READS),
            WireField.u64("page_programs", PAGE_PROGRAMS),
            WireField.u64("block_erases", BLOCK_ERASES),
            WireField.u64("erase_failures", ERASE_FAILURES),
            WireField.u64("program_failures", PROGRAM_FAILURES),
            WireField.u64("syncs", SYNCS),
            WireField.u64("rule_violations", RULE_VIOLATIONS),
            WireField.u64("failed_blocks", FAILED_BLOCKS),
            WireField.u64("bytes_read", BYTES_READ),
            WireField.u64("bytes_programmed", BYTES_PROGRAMMED),
            WireField.u64("host_commands", HOST_COMMANDS),
            WireField.u64("link_bytes_in", LINK_BYTES_IN),
            WireField.u64("link_bytes_out", LINK_BYTES_OUT),
            WireField.u64("isp_instructions", ISP_INSTRUCTIONS),
            WireField.u64("isp_dram_accesses", ISP_DRAM_ACCESSES),
            WireField.u64("isp_pages", ISP_PAGES),
            WireField.u64("die_busy_ns", DIE_BUSY_NS),
            WireField.u64("channel_busy_ns", CHANNEL_BUSY_NS),
            WireField.u64("link_busy_ns", LINK_BUSY_NS),
            WireField.u64("isp_busy_ns", ISP_BUSY_NS),
            WireField.u64("now_ns", NOW_NS),
            WireField.u64("energy_nand_read_nj", ENERGY_NAND_READ_NJ),
            WireField.u64("energy_nand_program_nj", ENERGY_NAND_PROGRAM_NJ),
            WireField.u64("energy_nand_erase_nj", ENERGY_NAND_ERASE_NJ),
            WireField.u64("energy_link_nj", ENERGY_LINK_NJ),
            WireField.u64("energy_isp_nj", ENERGY_ISP_NJ),
            WireField.u64("energy_idle_nj", ENERGY_IDLE_NJ),
            WireField.u64("energy_total_nj", ENERGY_TOTAL_NJ),
            WireField.u64("host_now_ns", HOST_NOW_NS),
            WireField.u64("nand_read_nj", NAND_READ_NJ),
            WireField.u64("fw_page_overhead_ns", FW_PAGE_OVERHEAD_NS),
            WireField.u64("isp_ps_per_instruction", ISP_PS_PER_INSTRUCTION),
            WireField.u64("dram_access_ns", DRAM_ACCESS_NS),
            WireField.u64("isp_active_mw", ISP_ACTIVE_MW),
            WireField.u64("link_pj_per_byte", LINK_PJ_PER_BYTE));

    /** Decodes the counters' wire bytes at b's start. */
    static ModelCounters decode(ByteBuffer b) {
        ByteBuffer le = WireField.littleEndian(b);
        return new ModelCounters(le.getLong(PAGE_READS), le.getLong(PAGE_PROGRAMS),
                le.getLong(BLOCK_ERASES), le.getLong(ERASE_FAILURES),
                le.getLong(PROGRAM_FAILURES), le.getLong(SYNCS), le.getLong(RULE_VIOLATIONS),
                le.getLong(FAILED_BLOCKS), le.getLong(BYTES_READ), le.getLong(BYTES_PROGRAMMED),
                le.getLong(HOST_COMMANDS), le.getLong(LINK_BYTES_IN), le.getLong(LINK_BYTES_OUT),
                le.getLong(ISP_INSTRUCTIONS), le.getLong(ISP_DRAM_ACCESSES),
                le.getLong(ISP_PAGES), le.getLong(DIE_BUSY_NS), le.getLong(CHANNEL_BUSY_NS),
                le.getLong(LINK_BUSY_NS), le.getLong(ISP_BUSY_NS), le.getLong(NOW_NS),
                le.getLong(ENERGY_NAND_READ_NJ), le.getLong(ENERGY_NAND_PROGRAM_NJ),
                le.getLong(ENERGY_NAND_ERASE_NJ), le.getLong(ENERGY_LINK_NJ),
                le.getLong(ENERGY_ISP_NJ), le.getLong(ENERGY_IDLE_NJ),
                le.getLong(ENERGY_TOTAL_NJ), le.getLong(HOST_NOW_NS),
                new WorkPrices(le.getLong(NAND_READ_NJ), le.getLong(FW_PAGE_OVERHEAD_NS),
                        le.getLong(ISP_PS_PER_INSTRUCTION), le.getLong(DRAM_ACCESS_NS),
                        le.getLong(ISP_ACTIVE_MW), le.getLong(LINK_PJ_PER_BYTE)));
    }

    /**
     * The profile constants the drive's model charges a tasklet's work with (all 0 from a
     * daemon older than them). The ISP core's time for a tasklet is pages x
     * fwPageOverheadNs + instructions x ispPsPerInstruction / 1000 + DRAM accesses x
     * dramAccessNs; its energy is that time x ispActiveMw.
     */
    public record WorkPrices(long nandReadNj, long fwPageOverheadNs, long ispPsPerInstruction,
                             long dramAccessNs, long ispActiveMw, long linkPjPerByte) {
        public static final WorkPrices NONE = new WorkPrices(0, 0, 0, 0, 0, 0);
    }
}
