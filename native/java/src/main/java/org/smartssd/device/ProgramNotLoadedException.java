package org.smartssd.device;

/**
 * A run names an eBPF tasklet program ({@code org.smartssd.device.tasklet.BpfProgram}) that
 * the drive does not keep: it was never loaded there ({@code smartssd tasklet load}), or was
 * removed. The drive answers UNKNOWN_TASKLET at the instance's create; this names the
 * program and the drive.
 */
public class ProgramNotLoadedException extends TaskletFailedException {
    private static final long serialVersionUID = 1L;

    private final String program;
    private final String drive;

    public ProgramNotLoadedException(String program, String drive, int errno, int reasonCode) {
        super("no eBPF program '" + program + "' is loaded on " + drive + " (smartssd tasklet "
                + "load " + drive + " PROGRAM.o --name " + program + ")", errno, reasonCode,
                Failure.UNKNOWN_TASKLET);
        this.program = program;
        this.drive = drive;
    }

    /** Found on the host before any run: the drive's program list lacks it. */
    public ProgramNotLoadedException(String program, String drive) {
        this(program, drive, Errno.ENOENT, Reason.UNKNOWN_TASKLET.code());
    }

    /** The program's name, as the run gave it. */
    public String program() {
        return program;
    }

    /** The drive's URI. */
    public String drive() {
        return drive;
    }
}
