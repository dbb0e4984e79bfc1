package org.smartssd.device;

import org.smartssd.device.TaskletFailedException.Failure;

/**
 * The one mapping from the drive's answers to Java exceptions. A failed native call returns
 * {@code -((reason << 32) | errno)}: the negative Linux errno in the low 32 bits and the
 * drive's reason code ({@link Reason}) above it, so no object is allocated for the error path
 * in C. The reason decides when the drive gave one, the errno otherwise.
 */
public final class Errors {
    private Errors() {
    }

    /** The errno (positive) of a packed native result. */
    static int errnoOf(long rc) {
        return (int) ((-rc) & 0xffffffffL);
    }

    /** The reason code of a packed native result. */
    static int reasonOf(long rc) {
        return (int) ((-rc) >>> 32);
    }

    /**
     * The exception for a failed command.
     *
     * @param rc      the negative errno (a positive value is taken as its absolute value)
     * @param reason  the drive's reason code, 0 when it gave none
     * @param message what was attempted, naming the path or object id (escaped here,
     *                {@link Printable})
     */
    public static java.io.IOException translate(long rc, int reason, String message) {
        int errno = (int) Math.abs(rc);
        Reason r = Reason.of(reason);
        String text = Printable.escape(message) + ": " + describe(errno, reason, r);
        if (r != null && r != Reason.OK) {
            return byReason(r, text, errno, reason);
        }
        return byErrno(text, errno, reason);
    }

    /**
     * The exception for a create the drive refused with UNKNOWN_TASKLET: when the spec runs
     * eBPF program {@code program} (null: a built-in), the drive lacks that program
     * (failure {@link TaskletFailedException.Failure#PROGRAM_NOT_LOADED}); otherwise {@code e}
     * itself.
     */
    static TaskletFailedException createRefused(TaskletFailedException e, String program,
                                                String uri) {
        if (program == null || e.failure() != TaskletFailedException.Failure.UNKNOWN_TASKLET) {
            return e;
        }
        TaskletFailedException p = TaskletFailedException.programNotLoaded(program, uri);
        p.initCause(e);
        return p;
    }

    /**
     * The exception for a tasklet the drive stopped: {@code error} is the negative errno its
     * progress reports (-ENOMEM over budget, -ETIME past the step limit, -EINVAL bad
     * parameters), mapped to the drive's reason and then through {@link #translate}.
     */
    public static java.io.IOException taskletFailed(int error, String message) {
        int reason;
        switch (Math.abs(error)) {
            case Errno.ENOMEM:
                reason = Reason.TASKLET_BUDGET.code();
                break;
            case Errno.ETIME:
                reason = Reason.TASKLET_STEPS.code();
                break;
            case Errno.EINVAL:
                reason = Reason.TASKLET_PARAMS.code();
                break;
            case Errno.ENOSYS:
                reason = Reason.INPUT_UNSUPPORTED.code();
                break;
            case Errno.EILSEQ:
                reason = Reason.INPUT_MALFORMED.code();
                break;
            case Errno.ENODATA:
                reason = Reason.PLAN_MISMATCH.code();
                break;
            default:
                reason = Reason.TASKLET_FAILED.code();
                break;
        }
        return translate(error == 0 ? -Errno.EIO : error, reason, message);
    }

    private static String describe(int errno, int reason, Reason r) {
        StringBuilder sb = new StringBuilder();
        if (r != null && r != Reason.OK) {
            sb.append(r.description()).append(" (").append(r.name());
            if (errno != 0) {
                sb.append(", ").append(Errno.name(errno));
            }
            sb.append(')');
        } else {
            sb.append(errnoText(errno)).append(" (").append(Errno.name(errno));
            if (reason != 0) {
                sb.append(", drive reason ").append(reason);
            }
            sb.append(')');
        }
        String hint = hint(errno, r);
        if (hint != null) {
            sb.append("; ").append(hint);
        }
        return sb.toString();
    }

    private static String hint(int errno, Reason r) {
        if (r == null || r == Reason.OK) {
            switch (errno) {
                case Errno.EPIPE:
                case Errno.ECONNRESET:
                case Errno.ENOTCONN:
                case Errno.ESHUTDOWN:
                case Errno.ECONNREFUSED:
                case Errno.ECONNABORTED:
                    return "is smartssd-devd running? the next call reconnects once it serves "
                            + "the drive again";
                case Errno.ENOSPC:
                    return "remove objects or use a larger drive";
                case Errno.EUSERS:
                    return "close clients, or raise smartssd-devd --max-connections";
                default:
                    return null;
            }
        }
        switch (r) {
            case BAD_VERSION:
            case BAD_MAGIC:
            case BAD_OPCODE:
                return "host library and drive firmware differ: rebuild or reformat with matching versions";
            case BAD_CRC:
            case BAD_LENGTH:
            case TAG_MISMATCH:
            case NO_REPLY:
            case REPLY_TOO_BIG:
                return "the command was not applied; retry, and report it if it repeats";
            case BUSY:
            case TAG_IN_USE:
                return "retry later: the drive's reply slots, reply memory or tasklet instances"
                        + " are all in use (destroy finished tasklet instances)";
            case TOO_MANY_SESSIONS:
                return "close clients, or retry once some have finished";
            case PROGRAM_REFUSED:
                return "fix the program at the instruction named (docs/tasklets.md says what"
                        + " the verifier accepts)";
            case DRIVE_FULL:
                return "remove objects or use a larger drive";
            case TOO_MANY_OBJECTS:
                return "remove objects, or reformat with a larger object table";
            case TASKLET_BUDGET:
                return "create the tasklet with a larger memory budget";
            case TASKLET_STEPS:
                return "create the tasklet with a larger step limit";
            case TASKLET_WATCHDOG:
                return "the tasklet loops without returning; fix the tasklet";
            case TASKLET_PARAMS:
            case BAD_LAYOUT:
                return "check the tasklet's parameters against builtin_tasklets.h";
            case BAD_SESSION:
                return "the drive restarted, or the connection that opened the session closed;"
                        + " the next call opens a new session";
            case STORE_DAMAGED:
                return "run 'smartssd info --check' to see what is wrong";
            case STALE_BLOCK:
                return "scan the file on the host; its reads replace the stale blocks";
            case INPUT_UNSUPPORTED:
            case INPUT_MALFORMED:
                return "read and decode that input on the host";
            case PLAN_MISMATCH:
                return "plan again from the file's current footer";
            case CANCELED:
                return "the earlier write's error says what went wrong";
            case WRONG_INTERFACE:
                return "'smartssd geometry' shows the drive's interface; 'smartssd format"
                        + " --interface' changes it, erasing the drive";
            case NOT_WRITE_POINTER:
            case WRITE_UNIT:
            case READ_UNWRITTEN:
            case CHUNK_FULL:
                return "'smartssd chunks' shows each chunk's write pointer";
            case CHUNK_OFFLINE:
                return "the chunk has worn out: place the data in another";
            default:
                return null;
        }
    }

    private static String errnoText(int errno) {
        switch (errno) {
            case Errno.ENOENT: return "no such file, directory or object";
            case Errno.EEXIST: return "already exists";
            case Errno.ENOTDIR: return "not a directory";
            case Errno.EISDIR: return "is a directory";
            case Errno.ENOTEMPTY: return "directory not empty";
            case Errno.ENOSPC: return "no space left on the drive";
            case Errno.EAGAIN:
            case Errno.EBUSY: return "the drive is busy";
            case Errno.ENAMETOOLONG: return "name too long";
            case Errno.EINVAL: return "invalid argument";
            case Errno.EIO: return "input/output error";
            case Errno.ENOMEM: return "out of memory";
            case Errno.EACCES:
            case Errno.EPERM: return "access denied";
            case Errno.ETIME: return "step limit reached";
            case Errno.EPROTO:
            case Errno.EBADMSG: return "protocol error";
            case Errno.EPIPE:
            case Errno.ECONNRESET:
            case Errno.ENOTCONN:
            case Errno.ESHUTDOWN:
            case Errno.ECONNABORTED: return "the link to the drive is closed";
            case Errno.ECONNREFUSED: return "nothing listens on the drive's socket";
            case Errno.ENODEV: return "no such device";
            case Errno.ENODATA: return "the drive is not formatted";
            case Errno.ENOSYS:
            case Errno.ENOTSUP: return "not supported by this drive or transport";
            case Errno.EROFS: return "the drive is read-only";
            case Errno.ETIMEDOUT: return "timed out";
            case Errno.EUSERS: return "too many clients";
            case Errno.EFBIG: return "too large";
            case Errno.ERANGE: return "out of range";
            default: return "error";
        }
    }

    private static java.io.IOException byReason(Reason r, String text, int errno, int reason) {
        switch (r) {
            case NO_SUCH_OBJECT:
                return new NoSuchObjectException(text, errno, reason);
            case EXISTS:
                return new ObjectExistsException(text, errno, reason);
            case NOT_DIR:
                return new NotADirectoryException(text, errno, reason);
            case NOT_EMPTY:
                return new DirectoryNotEmptyException(text, errno, reason);
            case DRIVE_FULL:
            case TOO_MANY_OBJECTS:
                return new DriveFullException(text, errno, reason);
            case BAD_SESSION:
                return new TransportClosedException(text, errno, reason);
            case BAD_LAYOUT:
                return new TaskletFailedException(text, errno, reason, Failure.LAYOUT);
            case UNKNOWN_TASKLET:
                return new TaskletFailedException(text, errno, reason, Failure.UNKNOWN_TASKLET);
            case TASKLET_PARAMS:
                return new TaskletFailedException(text, errno, reason, Failure.PARAMS);
            case TASKLET_BUDGET:
                return new TaskletFailedException(text, errno, reason, Failure.BUDGET);
            case TASKLET_STEPS:
                return new TaskletFailedException(text, errno, reason, Failure.STEPS);
            case TASKLET_FAILED:
            case TASKLET_WATCHDOG:
                return new TaskletFailedException(text, errno, reason, Failure.OTHER);
            case INPUT_UNSUPPORTED:
                return new TaskletFailedException(text, errno, reason, Failure.INPUT_UNSUPPORTED);
            case INPUT_MALFORMED:
                return new TaskletFailedException(text, errno, reason, Failure.INPUT_MALFORMED);
            case PLAN_MISMATCH:
                return new TaskletFailedException(text, errno, reason, Failure.PLAN_MISMATCH);
            case OK:
                return byErrno(text, errno, reason);
            default:
                return new SmartSsdException(text, errno, reason);
        }
    }

    private static java.io.IOException byErrno(String text, int errno, int reason) {
        switch (errno) {
            case Errno.ENOENT:
                return new NoSuchObjectException(text, errno, reason);
            case Errno.EEXIST:
                return new ObjectExistsException(text, errno, reason);
            case Errno.ENOTDIR:
                return new NotADirectoryException(text, errno, reason);
            case Errno.ENOTEMPTY:
                return new DirectoryNotEmptyException(text, errno, reason);
            case Errno.ENOSPC:
                return new DriveFullException(text, errno, reason);
            case Errno.ETIME:
                return new TaskletFailedException(text, errno, reason, Failure.STEPS);
            case Errno.EPIPE:
            case Errno.ECONNRESET:
            case Errno.ENOTCONN:
            case Errno.ESHUTDOWN:
            case Errno.ECONNABORTED:
            case Errno.ECONNREFUSED:
            case Errno.EBADF:
                return new TransportClosedException(text, errno, reason);
            case Errno.EACCES:
            case Errno.EPERM:
                return new DriveAccessDeniedException(text, errno, reason);
            default:
                return new SmartSsdException(text, errno, reason);
        }
    }
}
