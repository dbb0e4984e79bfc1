package org.smartssd.fs.impl;

import java.io.IOException;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIOException;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;

/**
 * Creates a file for writing and returns its object id. The file exists on the drive, empty,
 * as soon as this returns, so every process sees it at once.
 *
 * <p>Cost: one CREATE (EXCL when not overwriting, PARENTS when recursive); when overwriting,
 * one TRUNCATE to zero as well, because CREATE returns an existing file as it is.
 *
 * <p>Errors: an existing file without overwrite, or a directory at the path, is
 * {@code FileAlreadyExistsException}; a file among the parents is
 * {@code ParentNotDirectoryException}; a missing parent when not recursive is
 * {@code FileNotFoundException}.
 */
public final class CreateOperation extends StoreOperation<Long> {
    /** What the operation needs from the drive. */
    public interface CreateCallbacks {
        /**
         * Creates a file object and returns its id; with {@code exclusive} an existing name
         * fails, without it an existing file is returned as it is.
         */
        long createFile(String key, boolean exclusive, boolean parents) throws IOException;

        void truncate(long oid, long size) throws IOException;
    }

    private final CreateCallbacks callbacks;
    private final boolean overwrite;
    private final boolean recursive;

    public CreateOperation(StoreContext ctx, Path path, boolean overwrite, boolean recursive,
                           CreateCallbacks callbacks) {
        super(ctx, StoreStatisticNames.OP_CREATE, path);
        this.callbacks = callbacks;
        this.overwrite = overwrite;
        this.recursive = recursive;
    }

    @Override
    protected Long executeOnce() throws IOException {
        String key = context().pathToKey(path());
        if (key.equals("/")) {
            throw new PathIOException(path().toString(), "cannot create a file over the root");
        }
        context().statistics().incrementWriteOps(1);
        long oid = callbacks.createFile(key, !overwrite, recursive);
        if (overwrite) {
            callbacks.truncate(oid, 0);
        }
        return oid;
    }
}
