package org.smartssd.fs.impl;

import java.io.IOException;
import java.util.Optional;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.smartssd.device.Reason;
import org.smartssd.device.NoSuchObjectException;
import org.smartssd.device.NotADirectoryException;
import org.smartssd.device.ObjectExistsException;
import org.smartssd.device.ObjectStat;
import org.smartssd.device.SmartSsdException;

/**
 * Renames a file or a directory with HDFS's {@code rename(Path, Path)} rules, as one device
 * RENAME: atomic for files and whole directory trees, and never replacing anything
 * (NOREPLACE), so a destination created concurrently is not lost.
 *
 * <p>Rules: an existing directory as destination receives the source under its own name;
 * false when the source is missing or the root, when the destination (or, for a directory
 * destination, the entry of that name in it) exists, when the destination's parent is
 * missing or a file, or when a directory would move below itself. Renaming a path onto
 * itself is true when it exists.
 *
 * <p>Cost: one LOOKUP of the source, one LOOKUP of the destination, one RENAME.
 */
public final class RenameOperation extends StoreOperation<Boolean> {
    /** What the operation needs from the drive. */
    public interface RenameCallbacks {
        /** Stat by path, or empty when nothing is there (a file parent included). */
        Optional<ObjectStat> find(String key) throws IOException;

        /** Renames without replacing an existing destination. */
        void renameNoReplace(String srcKey, String dstKey) throws IOException;
    }

    private final RenameCallbacks callbacks;
    private final Path dest;

    public RenameOperation(StoreContext ctx, Path source, Path dest, RenameCallbacks callbacks) {
        super(ctx, StoreStatisticNames.OP_RENAME, source);
        this.dest = dest;
        this.callbacks = callbacks;
    }

    @Override
    protected Boolean executeOnce() throws IOException {
        String src = context().pathToKey(path());
        String dst = context().pathToKey(dest);
        context().statistics().incrementWriteOps(1);
        if (src.equals("/")) {
            return false;
        }
        Optional<ObjectStat> srcStat = callbacks.find(src);
        if (srcStat.isEmpty()) {
            return false;
        }
        if (dst.equals(src)) {
            return true;
        }
        if (dst.startsWith(src + "/")) {
            return false;
        }
        String target = dst;
        Optional<ObjectStat> dstStat = callbacks.find(dst);
        if (dstStat.isPresent()) {
            if (!dstStat.get().isDirectory()) {
                return false;
            }
            String name = src.substring(src.lastIndexOf('/') + 1);
            target = dst.equals("/") ? "/" + name : dst + "/" + name;
            if (target.equals(src)) {
                return true; // moved into the directory it already is in
            }
        }
        try {
            callbacks.renameNoReplace(src, target);
            return true;
        } catch (ObjectExistsException | NoSuchObjectException | NotADirectoryException e) {
            return false;
        } catch (SmartSsdException e) {
            if (e.reason() == Reason.RENAME_INTO_SELF || e.reason() == Reason.ROOT) {
                return false;
            }
            throw e;
        }
    }
}
