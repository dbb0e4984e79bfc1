package org.smartssd.device;

/**
 * The emulated drive's timing and energy model: every figure follows from counted operations
 * and the drive's profile, never from host wall-clock. Energies are in nanojoules.
 *
 * @param prices the profile's prices of a tasklet's own counted work, which apportion the
 *               drive's energy among the tasks sharing it ({@link SharedDriveEnergy})
 */
public record ModelCounters(long nowNs, long hostCommands, long linkBytesIn, long linkBytesOut,
                            long pageReads, long pagePrograms, long blockErases,
                            long ispInstructions, long ispDramAccesses, long ispPages,
                            long linkBusyNs, long ispBusyNs, long energyNandReadNj,
                            long energyNandProgramNj, long energyNandEraseNj,
                            long energyLinkNj, long energyIspNj, long energyIdleNj,
                            long energyTotalNj, WorkPrices prices) {
    /** Number of long slots the native layer fills, in the order of the components. */
    static final int SLOTS = 25;

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
