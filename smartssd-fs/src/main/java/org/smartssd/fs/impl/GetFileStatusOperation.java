package org.smartssd.fs.impl;

import java.io.IOException;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.smartssd.device.ObjectStat;

/**
 * The status of one path. Cost: one LOOKUP.
 */
public final class GetFileStatusOperation extends StoreOperation<FileStatus> {
    /** What the operation needs from the drive. */
    public interface StatusCallbacks {
        /** @throws org.smartssd.device.NoSuchObjectException when nothing is there */
        ObjectStat lookup(String key) throws IOException;
    }

    private final StatusCallbacks callbacks;

    public GetFileStatusOperation(StoreContext ctx, Path path, StatusCallbacks callbacks) {
        super(ctx, StoreStatisticNames.OP_GET_FILE_STATUS, path);
        this.callbacks = callbacks;
    }

    @Override
    protected FileStatus executeOnce() throws IOException {
        context().statistics().incrementReadOps(1);
        ObjectStat st = callbacks.lookup(context().pathToKey(path()));
        return context().toFileStatus(st, path());
    }
}
