package org.smartssd.cli;

import java.io.FileNotFoundException;
import java.nio.file.NoSuchFileException;

import org.smartssd.device.DirectoryNotEmptyException;
import org.smartssd.device.NoSuchObjectException;
import org.smartssd.device.NotADirectoryException;
import org.smartssd.device.ObjectExistsException;
import org.smartssd.device.Reason;
import org.smartssd.device.SmartSsdError;

/** Exit codes of the smartssd command, for scripts. Listed in {@code smartssd --help}. */
public final class ExitCodes {
    public static final int OK = 0;
    /** Bad command line or argument. */
    public static final int USAGE = 1;
    /** A path on the drive or a local file does not exist. */
    public static final int NOT_FOUND = 2;
    /** The drive or the link to it failed (busy, full, protocol, transport closed, ...). */
    public static final int DRIVE = 3;
    /** The drive's namespace refused: exists, not empty, not a directory, is a directory. */
    public static final int CONFLICT = 4;
    /** A local file could not be read or written. */
    public static final int LOCAL_IO = 5;
    /** smartssd is not built or installed completely (native library, smartssd-devd,
     *  smartssd-replay). */
    public static final int INSTALL = 6;
    /** {@code info --check} found the drive's object store inconsistent. */
    public static final int INCONSISTENT = 7;

    static final String HELP = "%nExit codes:%n"
            + "  0  success%n"
            + "  1  usage: bad command line or argument, or a malformed trace (replay)%n"
            + "  2  not found: no such path on the drive, or no such local file%n"
            + "  3  drive or link error: busy, full, tasklet failed, protocol mismatch,%n"
            + "     transport closed (is smartssd-devd running?)%n"
            + "  4  conflict: name exists, directory not empty, not a directory, is a directory%n"
            + "  5  local I/O error%n"
            + "  6  smartssd incompletely built: native library, smartssd-devd or%n"
            + "     smartssd-replay missing%n"
            + "  7  info --check: the drive's object store is inconsistent%n";

    private ExitCodes() {
    }

    /** The exit code for an exception a subcommand raised. */
    public static int of(Throwable t) {
        if (t instanceof UnsatisfiedLinkError || t instanceof ExceptionInInitializerError
                || t instanceof NoClassDefFoundError) {
            return INSTALL;
        }
        if (t instanceof IllegalArgumentException) {
            return USAGE;
        }
        if (t instanceof NoSuchObjectException) {
            return NOT_FOUND;
        }
        if (t instanceof ObjectExistsException || t instanceof DirectoryNotEmptyException
                || t instanceof java.nio.file.FileAlreadyExistsException
                || t instanceof NotADirectoryException
                || t instanceof SmartSsdError e && e.reason() == Reason.IS_DIR) {
            return CONFLICT;
        }
        if (t instanceof SmartSsdError) {
            return DRIVE;
        }
        if (t instanceof MissingBinaryException) {
            return INSTALL;
        }
        if (t instanceof FileNotFoundException || t instanceof NoSuchFileException) {
            return NOT_FOUND;
        }
        if (t instanceof java.io.IOException) {
            return LOCAL_IO;
        }
        return DRIVE;
    }
}
