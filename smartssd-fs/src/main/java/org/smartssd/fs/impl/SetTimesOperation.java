package org.smartssd.fs.impl;

import java.io.IOException;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.smartssd.device.ObjectStat;

/**
 * Sets a path's modification and access times (milliseconds; -1 keeps a time).
 * Cost: one LOOKUP, one SET_TIMES.
 */
public final class SetTimesOperation extends StoreOperation<Void> {
    /** What the operation needs from the drive. */
    public interface SetTimesCallbacks extends GetFileStatusOperation.StatusCallbacks {
        /** Times in ns since the epoch; negative keeps a time. */
        void setTimes(long oid, long mtimeNs, long atimeNs) throws IOException;
    }

    private final SetTimesCallbacks callbacks;
    private final long mtimeMs;
    private final long atimeMs;

    public SetTimesOperation(StoreContext ctx, Path path, long mtimeMs, long atimeMs,
                             SetTimesCallbacks callbacks) {
        super(ctx, StoreStatisticNames.OP_SET_TIMES, path);
        this.callbacks = callbacks;
        this.mtimeMs = mtimeMs;
        this.atimeMs = atimeMs;
    }

    @Override
    protected Void executeOnce() throws IOException {
        context().statistics().incrementWriteOps(1);
        ObjectStat st = callbacks.lookup(context().pathToKey(path()));
        callbacks.setTimes(st.oid(), mtimeMs < 0 ? -1 : mtimeMs * 1_000_000L,
                atimeMs < 0 ? -1 : atimeMs * 1_000_000L);
        return null;
    }
}
