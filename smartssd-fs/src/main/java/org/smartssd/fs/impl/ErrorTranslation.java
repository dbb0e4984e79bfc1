package org.smartssd.fs.impl;

import java.io.FileNotFoundException;
import java.io.IOException;

import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIOException;
import org.apache.hadoop.fs.PathIsDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.util.DiskChecker;
import org.smartssd.device.DirectoryNotEmptyException;
import org.smartssd.device.DriveFullException;
import org.smartssd.device.NoSuchObjectException;
import org.smartssd.device.NotADirectoryException;
import org.smartssd.device.ObjectExistsException;
import org.smartssd.device.Reason;
import org.smartssd.device.SmartSsdError;

/**
 * The one mapping from the drive's exceptions ({@code org.smartssd.device}) to the ones Hadoop
 * users expect, each naming the Hadoop path and keeping the drive's exception as its cause.
 * Exceptions without a Hadoop counterpart (link closed, busy, media error, ...) pass through
 * unchanged: they already name the drive and what it was asked.
 */
public final class ErrorTranslation {
    /** Linux errno of "file too large": the object cannot grow to the size asked. */
    static final int EFBIG = 27;
    /** Linux errno of "is a directory". */
    static final int EISDIR = 21;

    private ErrorTranslation() {
    }

    /**
     * @param operation what was attempted, e.g. "create"
     * @param path      the Hadoop path (qualified) the operation was about
     * @param e         what the drive layer threw
     */
    public static IOException translate(StoreContext ctx, String operation, Object path,
                                        IOException e) {
        String p = String.valueOf(path);
        String detail = operation + ": " + e.getMessage();
        Reason reason = e instanceof SmartSsdError se ? se.reason() : Reason.OK;
        int errno = e instanceof SmartSsdError se ? se.errno() : 0;
        IOException out;
        if (e instanceof NoSuchObjectException) {
            out = new FileNotFoundException(p + ": no such file or directory (" + detail + ")");
        } else if (e instanceof ObjectExistsException) {
            out = new FileAlreadyExistsException(p + ": already exists (" + detail + ")");
        } else if (e instanceof NotADirectoryException) {
            out = new ParentNotDirectoryException(p + ": a parent is a file, not a directory ("
                    + detail + ")");
        } else if (reason == Reason.IS_DIR || errno == EISDIR) {
            out = new PathIsDirectoryException(p);
        } else if (e instanceof DirectoryNotEmptyException) {
            out = new PathIsNotEmptyDirectoryException(p);
        } else if (e instanceof DriveFullException) {
            out = new DiskChecker.DiskOutOfSpaceException(p + ": drive " + ctx.driveName() + " ("
                    + ctx.driveUri() + ") is full: " + detail);
        } else if (errno == EFBIG) {
            out = new PathIOException(p, "the file cannot grow this large on drive "
                    + ctx.driveName() + " (" + ctx.driveUri() + "): past the drive's data "
                    + "capacity, or more extents than a file's record holds (" + detail + ")");
        } else if (reason == Reason.NAME_TOO_LONG || reason == Reason.BAD_PATH
                || reason == Reason.RENAME_INTO_SELF || reason == Reason.ROOT) {
            out = new PathIOException(p, detail);
        } else {
            return e;
        }
        if (out.getCause() == null) {
            out.initCause(e);
        }
        return out;
    }
}
