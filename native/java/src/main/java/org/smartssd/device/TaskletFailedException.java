package org.smartssd.device;

/**
 * The drive refused or stopped a tasklet. {@link #failure()} says why, in the drive's terms:
 * its parameters or layout were rejected, it overran its memory budget or step limit, the
 * drive has no such tasklet, or it returned another error; or the host could not decode its
 * output.
 */
public class TaskletFailedException extends SmartSsdException {
    private static final long serialVersionUID = 1L;

    /** Why the drive stopped the tasklet. */
    public enum Failure {
        PARAMS, LAYOUT, UNKNOWN_TASKLET, BUDGET, STEPS, OTHER,
        /** The input uses a format feature the drive does not decode: read it on the host. */
        INPUT_UNSUPPORTED,
        /** The input's bytes are not well formed for the tasklet. */
        INPUT_MALFORMED,
        /** The params contradict the input (a Parquet plan from another version of the file). */
        PLAN_MISMATCH,
        /** The host could not decode the tasklet's output: cut short, or not of the layout
         *  the tasklet's decoder expects. */
        INCOMPLETE_OUTPUT,
        /** The run names an eBPF program ({@code tasklet.BpfProgram}) the drive does not keep:
         *  never loaded there ({@code smartssd tasklet load}), or removed. */
        PROGRAM_NOT_LOADED
    }

    private final Failure failure;

    public TaskletFailedException(String message, int errno, int reasonCode, Failure failure) {
        super(message, errno, reasonCode);
        this.failure = failure;
    }

    /** The host's decoder of a tasklet's output found it cut short or malformed. */
    public static TaskletFailedException incompleteOutput(String message) {
        return new TaskletFailedException(message, Errno.EBADMSG, 0, Failure.INCOMPLETE_OUTPUT);
    }

    /**
     * The drive does not keep eBPF program {@code program}: it answered UNKNOWN_TASKLET at the
     * instance's create, or, found on the host before any run, its program list lacks it.
     */
    public static TaskletFailedException programNotLoaded(String program, String drive) {
        return new TaskletFailedException("no eBPF program '" + program + "' is loaded on "
                + drive + " (smartssd tasklet load " + drive + " PROGRAM.o --name " + program
                + ")", Errno.ENOENT, Reason.UNKNOWN_TASKLET.code(), Failure.PROGRAM_NOT_LOADED);
    }

    public Failure failure() {
        return failure;
    }
}
