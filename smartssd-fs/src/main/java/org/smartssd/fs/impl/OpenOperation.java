package org.smartssd.fs.impl;

import java.io.FileNotFoundException;
import java.io.IOException;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.smartssd.device.ObjectStat;

/**
 * Finds the file to read, or to append to, and returns what the drive says about it.
 * Cost: one LOOKUP.
 *
 * <p>Errors: nothing there, or a directory, is {@code FileNotFoundException} (as HDFS).
 */
public final class OpenOperation extends StoreOperation<ObjectStat> {
    private final GetFileStatusOperation.StatusCallbacks callbacks;

    /**
     * @param append true to open for append (counted as such)
     */
    public OpenOperation(StoreContext ctx, Path path, boolean append,
                         GetFileStatusOperation.StatusCallbacks callbacks) {
        super(ctx, append ? StoreStatisticNames.OP_APPEND : StoreStatisticNames.OP_OPEN, path);
        this.callbacks = callbacks;
    }

    @Override
    protected ObjectStat executeOnce() throws IOException {
        context().statistics().incrementReadOps(1);
        ObjectStat st = callbacks.lookup(context().pathToKey(path()));
        if (st.isDirectory()) {
            throw new FileNotFoundException(path() + ": is a directory, not a file");
        }
        return st;
    }
}
