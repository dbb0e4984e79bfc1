package org.smartssd.fs.impl;

import java.io.IOException;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.smartssd.device.NoSuchObjectException;
import org.smartssd.device.NotADirectoryException;

/**
 * Deletes a file or directory. Cost: one REMOVE (RECURSIVE when asked), which the drive
 * runs as one command: no other command sees the tree half removed.
 *
 * <p>Results as HDFS: false when nothing is there; a non-empty directory without
 * {@code recursive} is {@code PathIsNotEmptyDirectoryException}. The root is never removed:
 * for it the cost is one LIST, the answer false, or {@code PathIsNotEmptyDirectoryException}
 * when it has entries and {@code recursive} is false.
 */
public final class DeleteOperation extends StoreOperation<Boolean> {
    /** What the operation needs from the drive. */
    public interface DeleteCallbacks {
        void remove(String key, boolean recursive) throws IOException;

        /** True when the directory has at least one entry. */
        boolean hasChildren(String key) throws IOException;
    }

    private final DeleteCallbacks callbacks;
    private final boolean recursive;

    public DeleteOperation(StoreContext ctx, Path path, boolean recursive,
                           DeleteCallbacks callbacks) {
        super(ctx, StoreStatisticNames.OP_DELETE, path);
        this.callbacks = callbacks;
        this.recursive = recursive;
    }

    @Override
    protected Boolean executeOnce() throws IOException {
        String key = context().pathToKey(path());
        context().statistics().incrementWriteOps(1);
        if (key.equals("/")) {
            if (!recursive && callbacks.hasChildren(key)) {
                throw new PathIsNotEmptyDirectoryException(path().toString());
            }
            return false;
        }
        try {
            callbacks.remove(key, recursive);
            return true;
        } catch (NoSuchObjectException | NotADirectoryException e) {
            return false; // nothing there: a missing or file parent means no such path
        }
    }
}
