package org.smartssd.device;

/**
 * The emulated drive's timing and energy model: every figure follows from counted operations
 * and the drive's profile, never from host wall-clock. Energies are in nanojoules.
 */
public record ModelCounters(long nowNs, long hostCommands, long linkBytesIn, long linkBytesOut,
                            long pageReads, long pagePrograms, long blockErases,
                            long ispInstructions, long ispDramAccesses, long ispPages,
                            long linkBusyNs, long ispBusyNs, long energyNandReadNj,
                            long energyNandProgramNj, long energyNandEraseNj,
                            long energyLinkNj, long energyIspNj, long energyIdleNj,
                            long energyTotalNj) {
    /** Number of long slots the native layer fills, in the order of the components. */
    static final int SLOTS = 19;
}
