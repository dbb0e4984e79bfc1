package org.smartssd.fs.impl;

import java.io.IOException;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;

/**
 * mkdirs: the directory and every missing parent, in one CREATE with PARENTS; an existing
 * directory is success. Cost: one CREATE.
 *
 * <p>Errors: a file at the path is {@code FileAlreadyExistsException}, a file among the
 * parents {@code ParentNotDirectoryException}.
 */
public final class MkdirOperation extends StoreOperation<Boolean> {
    /** What the operation needs from the drive. */
    public interface MkdirCallbacks {
        /** Creates the directory and its missing parents; an existing directory is fine. */
        void mkdirs(String key) throws IOException;
    }

    private final MkdirCallbacks callbacks;

    public MkdirOperation(StoreContext ctx, Path path, MkdirCallbacks callbacks) {
        super(ctx, StoreStatisticNames.OP_MKDIRS, path);
        this.callbacks = callbacks;
    }

    @Override
    protected Boolean executeOnce() throws IOException {
        context().statistics().incrementWriteOps(1);
        callbacks.mkdirs(context().pathToKey(path()));
        return true;
    }
}
