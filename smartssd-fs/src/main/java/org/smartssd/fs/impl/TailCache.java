package org.smartssd.fs.impl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.smartssd.device.ObjectStat;

/**
 * The ends of files read through one file system instance, kept in memory so that the
 * streams that open a file after the first one (Spark's tasks, each reading a Parquet
 * footer) do not move its tail over the link again.
 *
 * <p>A file's entry is a suffix {@code [start, size)} of one {@linkplain Version version}:
 * it begins with a read that reaches the end of the file and grows down by reads that end
 * where it starts, or inside it, as long as they lie in the last {@code maxBytes}. Only
 * what readers asked for is fetched, once; a read elsewhere goes to the drive as before.
 * A stream is served only from the entry of the version it opened; any other version there
 * is dropped. All entries together hold at most {@code capacity} bytes, the least recently
 * used dropped first.
 */
public final class TailCache {
    /**
     * What a file was at open, as LOOKUP or STAT said. The object id carries a generation
     * (delete and create give another), the drive counts every page written to an object
     * ({@code page_writes}: a rewrite of the same length changes it), and SET_TIMES can set
     * the mtime back but not the page count.
     */
    public record Version(long oid, long size, long mtimeNs, long pageWrites) {
        public static Version of(ObjectStat st) {
            return new Version(st.oid(), st.size(), st.mtimeNs(), st.pageWrites());
        }
    }

    /** Reads a range of an object into {@code dst}, as {@link ObjectIo#read} (one call). */
    @FunctionalInterface
    public interface Fetcher {
        int read(long offset, ByteBuffer dst) throws IOException;
    }

    /** What {@link #read} did: bytes served (-1: not the cache's), of which fetched now. */
    public record Served(int bytes, int fetched) {
        static final Served NOT_HANDLED = new Served(-1, 0);

        public boolean handled() {
            return bytes >= 0;
        }
    }

    private static final class Entry {
        final Version version;
        final String pathKey;
        /** Chunks by offset, together exactly [start, version.size). */
        final TreeMap<Long, byte[]> chunks = new TreeMap<>();
        long start;
        long bytes;

        Entry(Version version, String pathKey) {
            this.version = version;
            this.pathKey = pathKey;
            this.start = version.size();
        }
    }

    private final long maxBytes;
    private final long capacity;
    /** By object id, least recently used first. Guarded by this. */
    private final LinkedHashMap<Long, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long held;

    /**
     * @param maxBytes the last bytes of a file that may be kept (0: no cache)
     * @param capacity bytes all entries hold at most (at least maxBytes)
     */
    public TailCache(long maxBytes, long capacity) {
        if (maxBytes < 0 || capacity < maxBytes) {
            throw new IllegalArgumentException("tail cache of " + maxBytes
                    + " bytes per file in " + capacity + " bytes in all: the total must be at"
                    + " least the per-file size, and neither negative");
        }
        this.maxBytes = maxBytes;
        this.capacity = capacity;
    }

    public boolean enabled() {
        return maxBytes > 0;
    }

    /** Bytes all entries hold now. */
    public synchronized long heldBytes() {
        return held;
    }

    /** Entries now. */
    public synchronized int size() {
        return entries.size();
    }

    /**
     * Serves {@code [offset, offset + dst.remaining())}, clipped at the version's size, from
     * memory, first fetching the part of it below the entry through {@code fetch}, when the
     * read lies in the file's last {@code maxBytes} and reaches the entry (or the end).
     * Streams of one file wait for each other's fetch, so concurrent openers fetch it once.
     */
    public Served read(Version v, String pathKey, long offset, ByteBuffer dst, Fetcher fetch)
            throws IOException {
        if (maxBytes == 0 || offset >= v.size() || offset < v.size() - maxBytes) {
            return Served.NOT_HANDLED;
        }
        int want = (int) Math.min(dst.remaining(), v.size() - offset);
        Entry e = entry(v, pathKey, offset + want >= v.size());
        if (e == null) {
            return Served.NOT_HANDLED;
        }
        synchronized (e) {
            int fetched = 0;
            if (offset < e.start) {
                if (offset + want < e.start) {
                    return Served.NOT_HANDLED;
                }
                byte[] part = new byte[(int) (e.start - offset)];
                ByteBuffer b = ByteBuffer.wrap(part);
                while (b.hasRemaining()) {
                    int n = fetch.read(offset + b.position(), b);
                    if (n <= 0) {
                        // shorter than at open: truncated since; the drive is the answer
                        return Served.NOT_HANDLED;
                    }
                    fetched += n;
                }
                add(e, offset, part);
            }
            long at = offset;
            long end = offset + want;
            Map.Entry<Long, byte[]> c = e.chunks.floorEntry(at);
            while (at < end) {
                byte[] chunk = c.getValue();
                int from = (int) (at - c.getKey());
                int n = (int) Math.min(chunk.length - from, end - at);
                dst.put(chunk, from, n);
                at += n;
                c = e.chunks.higherEntry(c.getKey());
            }
            return new Served(want, fetched);
        }
    }

    /** The entry of v, replacing another version's; a new one only if {@code create}. */
    private synchronized Entry entry(Version v, String pathKey, boolean create) {
        Entry e = entries.get(v.oid());
        if (e != null && !e.version.equals(v)) {
            drop(e);
            e = null;
        }
        if (e == null && create) {
            e = new Entry(v, pathKey);
            entries.put(v.oid(), e);
        }
        return e;
    }

    /** Holds a chunk just below e's start; evicts the least recently used to fit. */
    private synchronized void add(Entry e, long offset, byte[] part) {
        e.chunks.put(offset, part);
        e.start = offset;
        if (entries.get(e.version.oid()) != e) {
            return;   // dropped while fetching: serves this read, counts for nothing
        }
        e.bytes += part.length;
        held += part.length;
        Iterator<Entry> lru = entries.values().iterator();
        List<Entry> out = new ArrayList<>();
        long over = held - capacity;
        while (over > 0 && lru.hasNext()) {
            Entry old = lru.next();
            if (old != e) {
                out.add(old);
                over -= old.bytes;
            }
        }
        out.forEach(this::drop);
    }

    private void drop(Entry e) {
        entries.remove(e.version.oid());
        held -= e.bytes;
    }

    /**
     * Drops every entry and returns the bytes they held. A fetch under way when it is called
     * still serves its own read, and its bytes are not kept.
     */
    public synchronized long clear() {
        long was = held;
        entries.clear();
        held = 0;
        return was;
    }

    /**
     * Drops the entries of {@code pathKey} and of everything under it: a change made
     * through this file system (create, append, truncate, delete, rename, times).
     */
    public synchronized void invalidate(String pathKey) {
        String under = pathKey.endsWith("/") ? pathKey : pathKey + "/";
        List<Entry> out = new ArrayList<>();
        for (Entry e : entries.values()) {
            if (e.pathKey.equals(pathKey) || e.pathKey.startsWith(under)) {
                out.add(e);
            }
        }
        out.forEach(this::drop);
    }
}
