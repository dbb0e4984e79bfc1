package org.smartssd.fs.sscache;

import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.apache.hadoop.util.DiskChecker;
import org.smartssd.device.DriveFullException;
import org.smartssd.device.SolidStateCache;
import org.smartssd.fs.DriveLog;

/**
 * Write-back (FlashTier §4.3.4) for one drive's cache in this JVM. A file written in
 * write-back mode lives as dirty blocks in the drive until the cleaner copies it to the
 * backing store; the drive keeps dirty blocks across any crash and never evicts them.
 *
 * <ul>
 * <li>The dirty-block table: every dirty address, in the order last written (LRU first),
 *     with the file it belongs to. Past the dirty threshold the cleaner writes back the file
 *     of the least recently written dirty block: a backing store writes files whole and in
 *     order, so a file is the unit of write-back. Adjacent dirty blocks go to the backing
 *     store in one write per drive READ (up to 1 MiB).</li>
 * <li>Each file has a manifest ({@link Manifest}) in a dirty block of its own. After a
 *     crash of the JVM or the drive, {@link #recover()} finds them with {@code exists}, and
 *     the table is rebuilt from {@code exists} over each file's blocks; every closed file is
 *     then written back. A file still open at the crash was never acknowledged: its blocks
 *     are evicted.</li>
 * <li>A write-back that fails (the backing store is down) leaves the file dirty and is
 *     retried after {@code smartssd.cache.DRIVE.writeback.retry.ms}.</li>
 * <li>A write that finds the cache full of dirty data asks the cleaner for room and waits
 *     up to {@code smartssd.cache.DRIVE.full.wait.ms}, then fails with
 *     Hadoop's {@code DiskOutOfSpaceException}; when nothing closed is left to write back it fails at
 *     once. Nothing acknowledged is dropped.</li>
 * </ul>
 * One manager per drive: two processes writing back through the same drive would not see
 * each other's tables (as FlashTier's cache manager, one per host).
 */
public final class WriteBackManager implements AutoCloseable {
    /** Manifest reservations grow by this many blocks: one manifest write per 256 blocks. */
    static final long RESERVE_STEP = 256;
    /** The most blocks one evict, clean or exists call covers. */
    static final int RANGE_STEP = 1 << 16;

    private final String drive;
    private final DriveLog log;
    private final SolidStateCache cache;
    private final BlockCacheIo io;
    private final FileSystem backing;
    private final IOStatisticsStore stats;
    private final long thresholdBlocks;
    private final long fullWaitMs;
    private final long retryMs;
    private final int blockSize;
    private final int payload;
    private final Map<String, PendingFile> pending = new HashMap<>();
    private final LinkedHashMap<Long, PendingFile> dirty = new LinkedHashMap<>();
    private final BitSet slots = new BitSet();
    private final Thread cleaner;
    private boolean urgent;
    private boolean stopping;
    private long generation;

    /** A file awaiting write-back, closed or still being written. */
    static final class PendingFile {
        final Path backingPath;
        volatile Manifest manifest;
        boolean writingBack;
        long retryAt;

        PendingFile(Path backingPath, Manifest manifest) {
            this.backingPath = backingPath;
            this.manifest = manifest;
        }

        String pathKey() {
            return manifest.pathKey();
        }

        long mtime() {
            return manifest.mtime();
        }

        long length() {
            return manifest.length();
        }

        boolean closed() {
            return manifest.state() == Manifest.State.CLOSED;
        }

        FileVersion version() {
            return new FileVersion(manifest.pathKey(), manifest.length(), manifest.mtime(), "");
        }
    }

    WriteBackManager(String drive, SolidStateCache cache, FileSystem backing,
                     IOStatisticsStore stats, float threshold, long fullWaitMs, long retryMs)
            throws IOException {
        if (!(threshold > 0 && threshold <= 1)) {
            throw new IllegalArgumentException(SsCacheConstants.CACHE_PREFIX + drive
                    + SsCacheConstants.DIRTY_THRESHOLD_SUFFIX + " = " + threshold
                    + ": use a share of the cache in (0, 1]");
        }
        this.drive = drive;
        this.log = DriveLog.of(WriteBackManager.class, drive);
        this.cache = cache;
        this.backing = backing;
        this.stats = stats;
        this.io = new BlockCacheIo(cache, stats, this::isDirty);
        this.blockSize = cache.blockSize();
        this.payload = CacheBlock.payloadBytes(blockSize);
        this.thresholdBlocks = Math.max(1, (long) (cache.capacityBlocks() * (double) threshold));
        this.fullWaitMs = fullWaitMs;
        this.retryMs = retryMs;
        recover();
        cleaner = new Thread(this::cleanerLoop, "sscache-cleaner-" + drive);
        cleaner.setDaemon(true);
        cleaner.start();
    }

    BlockCacheIo io() {
        return io;
    }

    /** Write-back counters: write-backs, their blocks and runs, failures, waits for room. */
    public IOStatisticsStore statistics() {
        return stats;
    }

    synchronized boolean isDirty(long address) {
        return dirty.containsKey(address);
    }

    /** Dirty blocks in the table. */
    public synchronized int dirtyBlocks() {
        return dirty.size();
    }

    /** Files not yet written back (closed or open). */
    public synchronized int pendingFiles() {
        return pending.size();
    }

    /** The pending file at a backing path, if any. */
    synchronized Optional<PendingFile> pending(String pathKey) {
        return Optional.ofNullable(pending.get(pathKey));
    }

    /** Pending files whose backing path is {@code dirKey} or lies below it. */
    synchronized List<PendingFile> pendingUnder(String dirKey) {
        String prefix = dirKey.endsWith("/") ? dirKey : dirKey + "/";
        List<PendingFile> out = new ArrayList<>();
        for (PendingFile pf : pending.values()) {
            if (pf.pathKey().equals(dirKey) || pf.pathKey().startsWith(prefix)) {
                out.add(pf);
            }
        }
        return out;
    }

    // ---- writing --------------------------------------------------------------------------

    /** Starts a file: its manifest, OPEN, is durable before this returns. */
    PendingFile create(Path backingPath, boolean overwrite) throws IOException {
        String pathKey = backing.makeQualified(backingPath).toString();
        if (pathKey.getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                > Manifest.maxPathBytes(blockSize)) {
            throw new IOException(pathKey + ": too long a path for write-back (at most "
                    + Manifest.maxPathBytes(blockSize) + " bytes)");
        }
        long base = CacheBlock.Addresses.dataBase(pathKey);
        List<PendingFile> sharingAddresses = new ArrayList<>();
        synchronized (this) {
            for (PendingFile other : pending.values()) {
                if (!other.pathKey().equals(pathKey)
                        && CacheBlock.Addresses.dataBase(other.pathKey()) == base) {
                    if (!other.closed()) {
                        throw new IOException(pathKey + " shares its cache addresses with "
                                + other.pathKey() + ", which is being written; close that first");
                    }
                    sharingAddresses.add(other);
                }
            }
        }
        writeBackNow(sharingAddresses); // two paths whose 40-bit address hashes agree
        PendingFile pf;
        synchronized (this) {
            PendingFile old = pending.get(pathKey);
            if (old != null) {
                if (!overwrite) {
                    throw new FileAlreadyExistsException(pathKey + " exists (not yet written back)");
                }
                cancelLocked(old);
            }
            int slot = slots.nextClearBit(0);
            if (slot >= CacheBlock.Addresses.MANIFEST_SLOTS) {
                throw new IOException("sscache://" + drive + ": "
                        + CacheBlock.Addresses.MANIFEST_SLOTS + " files await write-back; "
                        + "close or write back some before creating more");
            }
            slots.set(slot);
            pf = new PendingFile(backingPath, new Manifest(Manifest.State.OPEN, slot, pathKey,
                    UniqueClock.next(), 0, 0));
            pending.put(pathKey, pf);
        }
        try {
            writeManifest(pf.manifest);
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                pending.remove(pathKey, pf);
                slots.clear(pf.manifest.slot());
            }
            throw e;
        }
        return pf;
    }

    /**
     * Writes blocks [first, first + count) of an open file, dirty; durable on return. The
     * last block may be partial ({@code fileLength} then goes into its header).
     */
    void writeBlocks(PendingFile pf, long first, int count, byte[] src, int srcLength,
                     long fileLength) throws IOException {
        if (first + count > CacheBlock.Addresses.MAX_BLOCKS_PER_FILE) {
            throw new IOException(pf.pathKey() + ": write-back caches at most "
                    + CacheBlock.Addresses.MAX_BLOCKS_PER_FILE + " blocks of a file ("
                    + CacheBlock.Addresses.MAX_BLOCKS_PER_FILE * payload + " bytes)");
        }
        if (first + count > pf.manifest.reserved()) {
            Manifest m = pf.manifest.with(Manifest.State.OPEN, 0, first + count + RESERVE_STEP);
            writeManifest(m);
            pf.manifest = m;
        }
        byte[] digest = pf.version().digest();
        withRoom(pf.pathKey(), () -> io.write(pf.pathKey(), digest, first, count, src,
                srcLength, fileLength, true));
        long base = CacheBlock.Addresses.dataBase(pf.pathKey());
        synchronized (this) {
            for (int k = 0; k < count; k++) {
                dirty.remove(base + first + k);
                dirty.put(base + first + k, pf);
            }
            if (dirty.size() > thresholdBlocks) {
                notifyAll();
            }
        }
    }

    /** Acknowledges a file: its manifest, CLOSED with its length, is durable on return. */
    void commit(PendingFile pf, long length) throws IOException {
        Manifest m = pf.manifest.with(Manifest.State.CLOSED, length, pf.manifest.reserved());
        writeManifest(m);
        synchronized (this) {
            pf.manifest = m;
            notifyAll();
        }
    }

    /** Drops a file that was never acknowledged (or is replaced): blocks, then manifest. */
    synchronized void cancel(PendingFile pf) throws IOException {
        cancelLocked(pf);
    }

    private void cancelLocked(PendingFile pf) throws IOException {
        long deadline = System.currentTimeMillis() + Math.max(fullWaitMs, 60_000);
        while (pf.writingBack) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                throw new IOException(pf.pathKey() + ": still being written back after "
                        + Math.max(fullWaitMs, 60_000) + " ms; cannot replace or delete it yet");
            }
            try {
                wait(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("waiting for a write-back of "
                        + pf.pathKey());
            }
        }
        if (pending.get(pf.pathKey()) != pf) {
            return; // written back meanwhile
        }
        long base = CacheBlock.Addresses.dataBase(pf.pathKey());
        long blocks = Math.max(pf.manifest.reserved(), blocksOf(pf.length()));
        forRange(base, blocks, cache::evict);
        cache.evict(CacheBlock.Addresses.manifest(pf.manifest.slot()), 1);
        dirty.values().removeIf(owner -> owner == pf);
        pending.remove(pf.pathKey());
        slots.clear(pf.manifest.slot());
        generation++;
        notifyAll();
    }

    private void writeManifest(Manifest m) throws IOException {
        byte[] block = m.encode(blockSize);
        withRoom(m.pathKey(), () -> cache.writeDirty(
                CacheBlock.Addresses.manifest(m.slot()), block, 0, 1));
    }

    private static IOException cacheFull(String message, DriveFullException cause) {
        IOException e = new DiskChecker.DiskOutOfSpaceException(message);
        e.initCause(cause);
        return e;
    }

    @FunctionalInterface
    private interface CacheWrite {
        void run() throws IOException;
    }

    /** Runs a dirty write; while the cache is full of dirty data, waits for the cleaner. */
    private void withRoom(String pathKey, CacheWrite write) throws IOException {
        long deadline = System.currentTimeMillis() + fullWaitMs;
        for (;;) {
            try {
                write.run();
                return;
            } catch (DriveFullException full) {
                stats.incrementCounter(CacheStatistics.FULL_WAITS);
                synchronized (this) {
                    if (!anyClosedLocked()) {
                        throw cacheFull("sscache://" + drive + ": the cache is "
                                + "full of dirty data (" + dirty.size() + " dirty blocks in the "
                                + "table) and no closed file is left to write back; the write of "
                                + pathKey + " was not accepted. Close files sooner, lower "
                                + SsCacheConstants.CACHE_PREFIX + drive
                                + SsCacheConstants.DIRTY_THRESHOLD_SUFFIX
                                + " or give the cache a larger share of the drive", full);
                    }
                    urgent = true;
                    notifyAll();
                    long seen = generation;
                    while (generation == seen) {
                        long left = deadline - System.currentTimeMillis();
                        if (left <= 0) {
                            throw cacheFull("sscache://" + drive + ": the cache "
                                    + "is full of dirty data and the cleaner made no room in "
                                    + fullWaitMs + " ms (is the backing store failing? see "
                                    + CacheStatistics.WRITE_BACK_FAILURES + "); the write of "
                                    + pathKey + " was not accepted, nothing written before is "
                                    + "lost", full);
                        }
                        try {
                            wait(left);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new java.io.InterruptedIOException("waiting for room in the cache");
                        }
                    }
                }
            }
        }
    }

    private boolean anyClosedLocked() {
        for (PendingFile pf : pending.values()) {
            if (pf.closed()) {
                return true;
            }
        }
        return false;
    }

    // ---- cleaning -------------------------------------------------------------------------

    /**
     * Writes back every closed file now and waits for it, at most {@code timeoutMs}.
     * \return the closed files still dirty (0 when everything was written back).
     */
    public int writeBackAll(long timeoutMs) throws IOException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        synchronized (this) {
            urgent = true;
            notifyAll();
            for (;;) {
                int left = closedCountLocked();
                long wait = deadline - System.currentTimeMillis();
                if (left == 0 || wait <= 0) {
                    return left;
                }
                try {
                    wait(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("waiting for write-backs");
                }
            }
        }
    }

    /**
     * Waits until at most {@code blocks} dirty blocks are in the table, at most
     * {@code timeoutMs}. \return the dirty blocks when it returns.
     */
    public int awaitDirtyAtMost(long blocks, long timeoutMs) throws IOException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        synchronized (this) {
            for (;;) {
                long wait = deadline - System.currentTimeMillis();
                if (dirty.size() <= blocks || wait <= 0) {
                    return dirty.size();
                }
                try {
                    wait(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("waiting for the cleaner");
                }
            }
        }
    }

    /** Writes back the closed files under a path, synchronously (before a rename). */
    void writeBackNow(List<PendingFile> files) throws IOException {
        for (PendingFile pf : files) {
            synchronized (this) {
                long deadline = System.currentTimeMillis() + Math.max(fullWaitMs, 60_000);
                while (pf.writingBack) {
                    long left = deadline - System.currentTimeMillis();
                    if (left <= 0) {
                        throw new IOException(pf.pathKey() + ": a write-back did not finish in "
                                + Math.max(fullWaitMs, 60_000) + " ms");
                    }
                    try {
                        wait(left);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.io.InterruptedIOException("waiting for a write-back");
                    }
                }
                if (pending.get(pf.pathKey()) != pf) {
                    continue;
                }
                if (!pf.closed()) {
                    throw new IOException(pf.pathKey() + " is still open for writing");
                }
                pf.writingBack = true;
            }
            IOException failure = writeBack(pf);
            finishWriteBack(pf, failure);
            if (failure != null) {
                throw failure;
            }
        }
    }

    private int closedCountLocked() {
        int n = 0;
        for (PendingFile pf : pending.values()) {
            if (pf.closed()) {
                n++;
            }
        }
        return n;
    }

    private void cleanerLoop() {
        for (;;) {
            PendingFile victim;
            synchronized (this) {
                for (;;) {
                    if (stopping) {
                        return;
                    }
                    victim = pickVictimLocked(System.currentTimeMillis());
                    if (victim != null) {
                        break;
                    }
                    try {
                        wait(Math.max(1, Math.min(retryMs, 1000)));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                victim.writingBack = true;
            }
            finishWriteBack(victim, writeBack(victim));
        }
    }

    private synchronized void finishWriteBack(PendingFile pf, IOException failure) {
        pf.writingBack = false;
        if (failure != null) {
            pf.retryAt = System.currentTimeMillis() + retryMs;
            stats.incrementCounter(CacheStatistics.WRITE_BACK_FAILURES);
            log.warn("sscache://{}: write-back of {} failed ({}); it stays dirty in the cache "
                    + "and is retried in {} ms", drive, pf.pathKey(), failure.toString(), retryMs);
            log.debug("write-back failure", failure);
        }
        generation++;
        notifyAll();
    }

    /** The closed file owning the least recently written dirty block, when cleaning is due. */
    private PendingFile pickVictimLocked(long now) {
        boolean due = urgent || dirty.size() > thresholdBlocks;
        if (!due) {
            return null;
        }
        for (PendingFile pf : dirty.values()) {
            if (pf.closed() && !pf.writingBack && pf.retryAt <= now) {
                return pf;
            }
        }
        for (PendingFile pf : pending.values()) { // empty files have no blocks in the table
            if (pf.closed() && !pf.writingBack && pf.retryAt <= now) {
                return pf;
            }
        }
        if (urgent && closedCountLocked() == 0) {
            urgent = false;
        }
        return null;
    }

    /**
     * Copies a closed file from its dirty blocks to the backing store, then cleans its
     * blocks, then evicts its manifest. A file's blocks are cleaned only once the backing
     * store has it, so a crash at any point leaves either every block dirty (recovery writes
     * the file back again) or some clean (the write-back had finished: recovery cleans the
     * rest and drops the manifest). Nothing here needs a new dirty block, so the cleaner
     * makes progress in a cache full of dirty data. The backing file gets the version's
     * modification time, so its blocks stay valid cached data of the backing file.
     */
    private IOException writeBack(PendingFile pf) {
        Manifest m = pf.manifest;
        FileVersion version = pf.version();
        byte[] digest = version.digest();
        long base = CacheBlock.Addresses.dataBase(m.pathKey());
        long blocks = blocksOf(m.length());
        try {
            int max = io.maxBlocksPerCall();
            byte[] raw = new byte[max * blockSize];
            byte[] run = new byte[max * payload];
            try (FSDataOutputStream out = backing.create(pf.backingPath, true)) {
                for (long i = 0; i < blocks; ) {
                    int n = (int) Math.min(max, blocks - i);
                    long[] present = cache.read(base + i, n, raw, 0);
                    int runLength = 0;
                    for (int k = 0; k < n; k++) {
                        if (!BlockCacheIo.bit(present, k) || !CacheBlock.matches(raw,
                                k * blockSize, blockSize, digest, version, i + k)) {
                            throw new IOException(m.pathKey() + ": dirty block " + (i + k)
                                    + " is missing from the cache or does not verify");
                        }
                        int len = CacheBlock.payloadLength(raw, k * blockSize);
                        System.arraycopy(raw, k * blockSize + CacheBlock.HEADER_BYTES, run,
                                runLength, len);
                        runLength += len;
                    }
                    out.write(run, 0, runLength);
                    stats.incrementCounter(CacheStatistics.WRITE_BACK_RUNS);
                    i += n;
                }
            }
            try {
                backing.setTimes(pf.backingPath, m.mtime(), -1);
            } catch (UnsupportedOperationException e) {
                log.debug("{}: setTimes not supported; its cached blocks become unreachable",
                        pf.backingPath);
            }
            forRange(base, blocks, cache::clean);
            cache.evict(CacheBlock.Addresses.manifest(m.slot()), 1);
            synchronized (this) {
                dirty.values().removeIf(owner -> owner == pf);
                pending.remove(m.pathKey(), pf);
                slots.clear(m.slot());
            }
            stats.incrementCounter(CacheStatistics.WRITE_BACKS);
            stats.incrementCounter(CacheStatistics.WRITE_BACK_BLOCKS, blocks);
            return null;
        } catch (IOException e) {
            return e;
        } catch (RuntimeException e) {
            return new IOException(m.pathKey() + ": write-back failed", e);
        }
    }

    @FunctionalInterface
    private interface RangeOp {
        void apply(long first, int count) throws IOException;
    }

    private static void forRange(long first, long count, RangeOp op) throws IOException {
        for (long done = 0; done < count; ) {
            int n = (int) Math.min(RANGE_STEP, count - done);
            op.apply(first + done, n);
            done += n;
        }
    }

    long blocksOf(long length) {
        return (length + payload - 1) / payload;
    }

    // ---- recovery -------------------------------------------------------------------------

    /**
     * Rebuilds the table from the drive after any crash: {@code exists} over the manifest
     * range finds every file not yet written back; {@code exists} over each closed file's
     * blocks rebuilds its dirty entries. Closed files are then written back by the cleaner.
     */
    private void recover() throws IOException {
        long[] manifests = cache.exists(CacheBlock.Addresses.MANIFEST_BASE,
                CacheBlock.Addresses.MANIFEST_SLOTS);
        byte[] raw = new byte[blockSize];
        for (int slot = 0; slot < CacheBlock.Addresses.MANIFEST_SLOTS; slot++) {
            if (!BlockCacheIo.bit(manifests, slot)) {
                continue;
            }
            long address = CacheBlock.Addresses.manifest(slot);
            long[] present = cache.read(address, 1, raw, 0);
            Optional<Manifest> found = BlockCacheIo.bit(present, 0)
                    ? Manifest.decode(raw, 0, blockSize) : Optional.empty();
            if (found.isEmpty() || found.get().slot() != slot) {
                log.warn("sscache://{}: manifest slot {} holds no valid manifest; dropped",
                        drive, slot);
                cache.evict(address, 1);
                continue;
            }
            Manifest m = found.get();
            long base = CacheBlock.Addresses.dataBase(m.pathKey());
            long blocks = blocksOf(m.length());
            if (m.state() == Manifest.State.OPEN) {
                // never acknowledged: its blocks go, then its manifest
                forRange(base, Math.max(m.reserved(), blocks), cache::evict);
                cache.evict(address, 1);
                continue;
            }
            PendingFile pf = new PendingFile(new Path(m.pathKey()), m);
            List<Long> dirtyBlocks = new ArrayList<>();
            for (long done = 0; done < blocks; ) {
                int n = (int) Math.min(RANGE_STEP, blocks - done);
                long[] bits = cache.exists(base + done, n);
                for (int k = 0; k < n; k++) {
                    if (BlockCacheIo.bit(bits, k)) {
                        dirtyBlocks.add(base + done + k);
                    }
                }
                done += n;
            }
            if (dirtyBlocks.size() < blocks) {
                // blocks are cleaned (or evicted, by a delete) only after the write-back
                // finished: nothing of this file is left to write back
                forRange(base, blocks, cache::clean);
                cache.evict(address, 1);
                continue;
            }
            for (long a : dirtyBlocks) {
                dirty.put(a, pf);
            }
            pending.put(m.pathKey(), pf);
            slots.set(slot);
            urgent = true;
        }
    }

    /**
     * Stops the cleaner after one last attempt at every closed file; what fails stays dirty
     * in the drive and is written back by the next manager's recovery.
     */
    @Override
    public void close() {
        synchronized (this) {
            stopping = true;
            notifyAll();
        }
        try {
            cleaner.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<PendingFile> closed;
        synchronized (this) {
            closed = new ArrayList<>();
            for (PendingFile pf : pending.values()) {
                if (pf.closed() && !pf.writingBack) {
                    closed.add(pf);
                }
            }
        }
        try {
            writeBackNow(closed);
        } catch (IOException e) {
            log.warn("sscache://{}: files left dirty in the cache at close; the next start "
                    + "writes them back", drive, e);
        }
    }
}
