package org.smartssd.fs.impl;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.smartssd.device.DirEntry;
import org.smartssd.device.NotADirectoryException;
import org.smartssd.device.ObjectStat;

/**
 * Lists a directory, or gives the one status of a file. The drive's listing has names and
 * object ids; each entry's size and times come from a STAT by id, done as the iterator
 * reaches the entry. An entry removed between the LIST and its STAT is left out.
 *
 * <p>Cost: one LIST per 64 entries, one STAT per entry; for a file, a failed LIST and one
 * LOOKUP. Errors: nothing there is {@code FileNotFoundException}.
 */
public final class ListingOperation extends StoreOperation<RemoteIterator<FileStatus>> {
    /** What the operation needs from the drive. */
    public interface ListingCallbacks extends GetFileStatusOperation.StatusCallbacks {
        /** The entries of a directory, in the drive's stable order. */
        List<DirEntry> list(String key) throws IOException;

        /** Stat by object id, or empty when the object is gone. */
        Optional<ObjectStat> stat(long oid) throws IOException;
    }

    private final ListingCallbacks callbacks;

    public ListingOperation(StoreContext ctx, Path path, ListingCallbacks callbacks) {
        super(ctx, StoreStatisticNames.OP_LIST_STATUS, path);
        this.callbacks = callbacks;
    }

    /** All of it at once. */
    public FileStatus[] listAll() throws IOException {
        RemoteIterator<FileStatus> it = execute();
        List<FileStatus> out = new ArrayList<>();
        while (it.hasNext()) {
            out.add(it.next());
        }
        return out.toArray(new FileStatus[0]);
    }

    @Override
    protected RemoteIterator<FileStatus> executeOnce() throws IOException {
        String key = context().pathToKey(path());
        context().statistics().incrementReadOps(1);
        List<DirEntry> entries;
        try {
            entries = callbacks.list(key);
        } catch (NotADirectoryException e) {
            ObjectStat st = callbacks.lookup(key);
            if (st.isDirectory()) {
                throw e;
            }
            FileStatus one = context().toFileStatus(st, path());
            return new EntryIterator(List.of(), one);
        }
        return new EntryIterator(entries, null);
    }

    /** Stats entries lazily; translates errors like the operation. */
    private final class EntryIterator implements RemoteIterator<FileStatus> {
        private final Iterator<DirEntry> entries;
        private FileStatus next;

        EntryIterator(List<DirEntry> entries, FileStatus first) {
            this.entries = entries.iterator();
            this.next = first;
        }

        @Override
        public boolean hasNext() throws IOException {
            while (next == null && entries.hasNext()) {
                DirEntry e = entries.next();
                Optional<ObjectStat> st;
                try {
                    st = callbacks.stat(e.oid());
                } catch (IOException ex) {
                    throw ErrorTranslation.translate(context(), "list", path(), ex);
                }
                if (st.isPresent()) {
                    next = context().toFileStatus(st.get(), new Path(path(), e.name()));
                }
            }
            return next != null;
        }

        @Override
        public FileStatus next() throws IOException {
            if (!hasNext()) {
                throw new NoSuchElementException("no more entries in " + path());
            }
            FileStatus s = next;
            next = null;
            return s;
        }
    }

}
