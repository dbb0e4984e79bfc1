package org.smartssd.device;

/**
 * The emulated drive's timing and energy model: every figure follows from counted operations
 * and the drive's profile, never from host wall-clock. Energies are in nanojoules. The
 * components are the fields of SS_REPLY_MODEL in {@code protocol/include/ss_proto_replies.h},
 * in its order ({@link WireDecoder}); {@code prices} holds the last six.
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
