package org.smartssd.fs.impl;

import java.io.FileNotFoundException;
import java.io.IOException;

import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.smartssd.device.ObjectStat;

/**
 * Shortens a file, as HDFS's truncate; done at once, so the answer is always true.
 * Cost: one LOOKUP, one TRUNCATE.
 *
 * <p>Errors: a directory or nothing there is {@code FileNotFoundException}; a length below
 * zero or above the file's is {@code HadoopIllegalArgumentException}.
 */
public final class TruncateOperation extends StoreOperation<Boolean> {
    /** What the operation needs from the drive. */
    public interface TruncateCallbacks extends GetFileStatusOperation.StatusCallbacks {
        void truncate(long oid, long size) throws IOException;
    }

    private final TruncateCallbacks callbacks;
    private final long newLength;

    public TruncateOperation(StoreContext ctx, Path path, long newLength,
                             TruncateCallbacks callbacks) {
        super(ctx, StoreStatisticNames.OP_TRUNCATE, path);
        this.callbacks = callbacks;
        this.newLength = newLength;
    }

    @Override
    protected Boolean executeOnce() throws IOException {
        if (newLength < 0) {
            throw new HadoopIllegalArgumentException(path() + ": cannot truncate to a negative "
                    + "length " + newLength);
        }
        context().statistics().incrementWriteOps(1);
        ObjectStat st = callbacks.lookup(context().pathToKey(path()));
        if (st.isDirectory()) {
            throw new FileNotFoundException(path() + ": is a directory, not a file");
        }
        if (newLength > st.size()) {
            throw new HadoopIllegalArgumentException(path() + ": cannot truncate to a larger "
                    + "length (" + newLength + " > " + st.size() + ")");
        }
        callbacks.truncate(st.oid(), newLength);
        return true;
    }
}
