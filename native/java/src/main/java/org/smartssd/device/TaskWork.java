package org.smartssd.device;

/**
 * A tasklet run's own counted work, as the drive reports it in the run's progress: the pages
 * it read, the instructions and DRAM accesses the ISP core counted for it, and the output
 * bytes it produced (read back over the link). Priced with the drive's profile
 * ({@link ModelCounters.WorkPrices}) it is the weight by which {@link SharedDriveEnergy}
 * apportions the energy of a drive that several tasks share.
 */
public record TaskWork(long pages, long instructions, long dramAccesses, long outputBytes) {
    public static final TaskWork NONE = new TaskWork(0, 0, 0, 0);

    public TaskWork {
        if (pages < 0 || instructions < 0 || dramAccesses < 0 || outputBytes < 0) {
            throw new IllegalArgumentException("negative work count: " + pages + " pages, "
                    + instructions + " instructions, " + dramAccesses + " DRAM accesses, "
                    + outputBytes + " output bytes");
        }
    }

    /** The work of a run as its (final) progress report counts it. */
    public static TaskWork of(TaskletProgress p) {
        return new TaskWork(p.pagesDone(), p.instructions(), p.dramAccesses(), p.outputBytes());
    }

    /**
     * ISP core time the profile charges for this work, ns: pages x per-page firmware
     * overhead + instructions x ps per instruction (rounded up to whole ns) + DRAM accesses x
     * ns per access. The drive rounds each of its accounting calls up, so its own ISP time
     * may exceed this sum by under 1 ns a call.
     */
    public long ispNs(ModelCounters.WorkPrices p) {
        long insnNs = Math.addExact(Math.multiplyExact(instructions, p.ispPsPerInstruction()),
                999) / 1000;
        return Math.addExact(Math.addExact(Math.multiplyExact(pages, p.fwPageOverheadNs()),
                insnNs), Math.multiplyExact(dramAccesses, p.dramAccessNs()));
    }

    /**
     * The energy the profile prices this work at, in picojoules (integers, so exact): the
     * page reads (pages x nJ per read), the ISP core's time x its active power (ns x mW =
     * pJ), and the output's bytes over the link.
     */
    public long weightPj(ModelCounters.WorkPrices p) {
        long reads = Math.multiplyExact(pages, Math.multiplyExact(p.nandReadNj(), 1000));
        long isp = Math.multiplyExact(ispNs(p), p.ispActiveMw());
        long link = Math.multiplyExact(outputBytes, p.linkPjPerByte());
        return Math.addExact(Math.addExact(reads, isp), link);
    }
}
