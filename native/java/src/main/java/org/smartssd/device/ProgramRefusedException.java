package org.smartssd.device;

/**
 * The drive's verifier refused an eBPF tasklet program (PROGRAM_REFUSED), at load or at the
 * create of an instance whose layout the program does not fit. The message names the
 * instruction's index and the verifier's reason, e.g. "program refused at instruction 12:
 * memory access not proven inside its buffer (OUT_OF_BOUNDS)".
 */
public class ProgramRefusedException extends InvalidRequestException {
    private static final long serialVersionUID = 1L;

    public ProgramRefusedException(String message, int errno, int reasonCode) {
        super(message, errno, reasonCode);
    }
}
