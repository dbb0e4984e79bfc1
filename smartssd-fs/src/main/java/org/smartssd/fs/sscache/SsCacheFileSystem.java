package org.smartssd.fs.sscache;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.impl.PathCapabilitiesSupport;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSnapshot;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.apache.hadoop.util.Progressable;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.SolidStateCache;
import org.smartssd.fs.SmartSsdConstants;
import org.smartssd.fs.SmartSsdKeys;
import org.smartssd.fs.impl.DriveRegistry;
import org.smartssd.fs.impl.DriveResolver;

/**
 * {@code sscache://DRIVE/PATH}: the file {@code BACKING/PATH} of a slower file system
 * ({@code smartssd.cache.DRIVE.backing}: file://, hdfs://, an object store), cached in the
 * solid-state cache of the drive DRIVE ({@code smartssd.device.DRIVE.uri}).
 *
 * <p>The namespace is the backing store's: every metadata operation goes to it. Files are
 * cut into cache blocks keyed by (path, block index) and verified against the file's
 * version (length, modification time, etag) on every read ({@link CacheBlock}), so a file
 * changed on the backing store is read afresh. {@code smartssd.cache.DRIVE.mode}:
 * <ul>
 * <li>write-through (default): writes go to the backing store and, block by block, clean
 *     into the cache; no per-block state;</li>
 * <li>write-back: writes go to the cache as dirty blocks, acknowledged at close; the
 *     {@link WriteBackManager} writes them back. Until then this JVM's instances see the file
 *     (its status overlays the backing store's); other processes see it once it is
 *     written back.</li>
 * </ul>
 */
public class SsCacheFileSystem extends FileSystem implements IOStatisticsSource {
    static {
        Configuration.addDefaultResource("smartssd-default.xml");
    }

    private URI uri;
    private String drive;
    private String driveHost;
    private URI backingRoot;
    private String backingRootPath;
    private FileSystem backing;
    private SsCacheConstants.Mode mode;
    private DriveRegistry.Lease lease;
    private WriteBackRegistry.Lease writeBack;
    private BlockCacheIo io;
    private FillQueue fills;
    private IOStatisticsStore ioStatistics;
    private Path workingDir;
    private boolean closed;

    public SsCacheFileSystem() {
    }

    @Override
    public String getScheme() {
        return SsCacheConstants.SCHEME;
    }

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        setConf(conf);
        SmartSsdKeys.warnUnknown(conf);
        drive = name.getAuthority();
        if (drive == null || drive.isEmpty()) {
            throw new IOException("'" + name + "' names no drive: use sscache://DRIVE/path");
        }
        uri = URI.create(SsCacheConstants.SCHEME + "://" + drive);
        String prefix = SsCacheConstants.CACHE_PREFIX + drive;
        String root = conf.getTrimmed(prefix + SsCacheConstants.BACKING_SUFFIX, "");
        if (root.isEmpty()) {
            throw new IOException(uri + ": no backing store: set " + prefix
                    + SsCacheConstants.BACKING_SUFFIX + " to the root URI of the file system "
                    + "the drive caches (file:///data, hdfs://namenode:8020/warehouse)");
        }
        backingRoot = URI.create(root);
        if (backingRoot.getScheme() == null || backingRoot.getScheme().equals(getScheme())) {
            throw new IOException(prefix + SsCacheConstants.BACKING_SUFFIX + " = '" + root
                    + "' must be a URI with a scheme other than sscache (file:///data, hdfs://nn/x)");
        }
        String rp = backingRoot.getPath() == null ? "" : backingRoot.getPath();
        backingRootPath = rp.endsWith("/") ? rp.substring(0, rp.length() - 1) : rp;
        mode = SsCacheConstants.Mode.parse(prefix + SsCacheConstants.MODE_SUFFIX,
                conf.getTrimmed(prefix + SsCacheConstants.MODE_SUFFIX));
        DriveResolver.Resolved resolved = DriveResolver.resolve(drive, conf,
                SmartSsdDevice.CACHE_SHARE_DEFAULT);
        driveHost = resolved.host();
        ioStatistics = CacheStatistics.newStore();
        backing = FileSystem.newInstance(backingRoot, conf);
        try {
            lease = DriveRegistry.acquire(resolved.uri(), SmartSsdDevice::open);
            SolidStateCache cache = lease.device().cache();
            if (mode == SsCacheConstants.Mode.WRITE_BACK) {
                writeBack = WriteBackRegistry.acquire(resolved.uri() + "|" + backingRoot,
                        () -> openManager(resolved.uri(), conf));
                io = new BlockCacheIo(cache, ioStatistics, writeBack.manager()::isDirty);
            } else {
                io = new BlockCacheIo(cache, ioStatistics, address -> false);
            }
            fills = new FillQueue(io, ioStatistics,
                    conf.getLong(prefix + SsCacheConstants.FILL_QUEUE_SUFFIX,
                            SsCacheConstants.FILL_QUEUE_DEFAULT),
                    conf.getLong(prefix + SsCacheConstants.FILL_WAIT_SUFFIX,
                            SsCacheConstants.FILL_WAIT_DEFAULT), drive);
        } catch (IOException | RuntimeException e) {
            closeQuietly();
            throw e;
        }
        workingDir = makeQualified(new Path("/"));
    }

    private WriteBackRegistry.Entry openManager(String driveUri, Configuration conf)
            throws IOException {
        String prefix = SsCacheConstants.CACHE_PREFIX + drive;
        DriveRegistry.Lease own = DriveRegistry.acquire(driveUri, SmartSsdDevice::open);
        FileSystem ownBacking = null;
        try {
            ownBacking = FileSystem.newInstance(backingRoot, conf);
            WriteBackManager m = new WriteBackManager(drive, own.device().cache(), ownBacking,
                    CacheStatistics.newStore(),
                    conf.getFloat(prefix + SsCacheConstants.DIRTY_THRESHOLD_SUFFIX,
                            SsCacheConstants.DIRTY_THRESHOLD_DEFAULT),
                    conf.getLong(prefix + SsCacheConstants.FULL_WAIT_SUFFIX,
                            SsCacheConstants.FULL_WAIT_DEFAULT),
                    conf.getLong(prefix + SsCacheConstants.RETRY_SUFFIX,
                            SsCacheConstants.RETRY_DEFAULT));
            FileSystem b = ownBacking;
            return new WriteBackRegistry.Entry(m, () -> {
                try {
                    b.close();
                } finally {
                    own.close();
                }
            });
        } catch (IOException | RuntimeException e) {
            if (ownBacking != null) {
                ownBacking.close();
            }
            own.close();
            throw e;
        }
    }

    @Override
    public URI getUri() {
        return uri;
    }

    /** The write-back manager of this drive, or null in write-through mode. */
    public WriteBackManager writeBackManager() {
        return writeBack == null ? null : writeBack.manager();
    }

    /** The drive's solid-state cache. */
    public SolidStateCache cache() {
        return io.cache();
    }

    /** The drive: its model's counters show what crossed the link (tests). */
    SmartSsdDevice device() throws IOException {
        checkOpen();
        return lease.device();
    }

    /**
     * What a scan in the drive needs to read {@code f} through the cache (device jobs): the
     * version the backing store has now, so a file changed behind the cache's back is
     * scanned as its new version and no old block is used.
     *
     * @throws IOException also for a file written in write-back mode and not yet on the
     *         backing store: a scan reads the backing store's version
     */
    public CachedFile cachedFile(Path f) throws IOException {
        checkOpen();
        Path b = toBacking(f);
        if (writeBack != null && writeBack.manager().pending(key(b)).isPresent()) {
            throw new IOException(f + " is not yet written back: a scan in the drive reads "
                    + "the backing store's version of a file");
        }
        FileStatus st = backing.getFileStatus(b);
        if (st.isDirectory()) {
            throw new FileNotFoundException(f + " is a directory");
        }
        FileVersion v = FileVersion.of(st);
        return new CachedFile(lease.device(), io.cache(), v, v.digest(),
                CacheBlock.Addresses.dataBase(v.pathKey()), io.payload());
    }

    /** The backing file system (this instance's own). */
    /**
     * Waits until the blocks readers have read from the backing store so far are cached
     * (or their fills failed or were dropped, counted), at most {@code timeoutMs}.
     * @throws IOException naming what is still queued when the time is up
     */
    public void awaitFills(long timeoutMs) throws IOException {
        checkOpen();
        fills.drain(timeoutMs);
    }

    public FileSystem backing() {
        return backing;
    }

    /** The backing path of a path of this file system. */
    public Path toBacking(Path p) {
        String path = makeQualified(p).toUri().getPath();
        String joined = backingRootPath + (path.equals("/") ? "" : path);
        return new Path(backingRoot.getScheme(), backingRoot.getAuthority(),
                joined.isEmpty() ? "/" : joined);
    }

    private Path fromBacking(Path b) {
        String path = b.toUri().getPath();
        if (!path.startsWith(backingRootPath)) {
            throw new IllegalStateException(b + " lies outside the backing root " + backingRoot);
        }
        String rel = path.substring(backingRootPath.length());
        return new Path(uri.getScheme(), uri.getAuthority(), rel.isEmpty() ? "/" : rel);
    }

    private FileStatus translate(FileStatus st) throws IOException {
        FileStatus copy = new FileStatus(st);
        copy.setPath(fromBacking(st.getPath()));
        return copy;
    }

    private String key(Path backingPath) {
        return backing.makeQualified(backingPath).toString();
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException(uri + ": the file system is closed");
        }
    }

    @Override
    public Path getWorkingDirectory() {
        return workingDir;
    }

    @Override
    public void setWorkingDirectory(Path dir) {
        workingDir = makeQualified(dir);
    }

    @Override
    public long getDefaultBlockSize(Path f) {
        return backing.getDefaultBlockSize(toBacking(f));
    }

    @Override
    public long getDefaultBlockSize() {
        return backing.getDefaultBlockSize();
    }

    @Override
    public String getCanonicalServiceName() {
        return null;
    }

    // ---- namespace: the backing store's, with files awaiting write-back overlaid ----------

    private FileStatus pendingStatus(WriteBackManager.PendingFile pf, Path path) {
        return new FileStatus(pf.length(), false, 1, getDefaultBlockSize(), pf.mtime(),
                makeQualified(path));
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
        checkOpen();
        Path b = toBacking(f);
        if (writeBack != null) {
            var pf = writeBack.manager().pending(key(b));
            if (pf.isPresent()) {
                return pendingStatus(pf.get(), f);
            }
        }
        return translate(backing.getFileStatus(b));
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
        checkOpen();
        Path b = toBacking(f);
        List<WriteBackManager.PendingFile> overlay = writeBack == null ? List.of()
                : writeBack.manager().pendingUnder(key(b));
        FileStatus[] listed;
        try {
            listed = backing.listStatus(b);
        } catch (FileNotFoundException e) {
            if (overlay.size() == 1 && overlay.get(0).pathKey().equals(key(b))) {
                return new FileStatus[] {pendingStatus(overlay.get(0), f)};
            }
            throw e;
        }
        Map<String, FileStatus> out = new LinkedHashMap<>();
        for (FileStatus st : listed) {
            out.put(key(st.getPath()), translate(st));
        }
        for (WriteBackManager.PendingFile pf : overlay) {
            Path pb = new Path(pf.pathKey());
            if (pf.pathKey().equals(key(b))) {
                return new FileStatus[] {pendingStatus(pf, f)};
            }
            if (key(pb.getParent()).equals(key(b))) {
                out.put(pf.pathKey(), pendingStatus(pf, fromBacking(pb)));
            }
        }
        return out.values().toArray(new FileStatus[0]);
    }

    @Override
    public boolean mkdirs(Path f, FsPermission permission) throws IOException {
        checkOpen();
        if (writeBack != null && writeBack.manager().pending(key(toBacking(f))).isPresent()) {
            throw new FileAlreadyExistsException(f + " is a file");
        }
        return backing.mkdirs(toBacking(f), permission);
    }

    @Override
    public boolean delete(Path f, boolean recursive) throws IOException {
        checkOpen();
        Path b = toBacking(f);
        boolean dropped = false;
        if (writeBack != null) {
            List<WriteBackManager.PendingFile> under = writeBack.manager().pendingUnder(key(b));
            boolean isFile = under.size() == 1 && under.get(0).pathKey().equals(key(b));
            if (!under.isEmpty() && !isFile && !recursive) {
                throw new org.apache.hadoop.fs.PathIsNotEmptyDirectoryException(f.toString());
            }
            for (WriteBackManager.PendingFile pf : under) {
                writeBack.manager().cancel(pf);
                dropped = true;
            }
        }
        if (makeQualified(f).isRoot()) {
            return deleteRootChildren(f, b, recursive) || dropped;
        }
        return backing.delete(b, recursive) || dropped;
    }

    /** The backing root itself stays: deleting "/" deletes what is in it. */
    private boolean deleteRootChildren(Path f, Path b, boolean recursive) throws IOException {
        FileStatus[] children = backing.listStatus(b);
        if (children.length == 0) {
            return false;
        }
        if (!recursive) {
            throw new org.apache.hadoop.fs.PathIsNotEmptyDirectoryException(f.toString());
        }
        boolean any = false;
        for (FileStatus c : children) {
            any |= backing.delete(c.getPath(), true);
        }
        return any;
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        checkOpen();
        Path bs = toBacking(src);
        if (writeBack != null) {
            writeBack.manager().writeBackNow(writeBack.manager().pendingUnder(key(bs)));
        }
        return backing.rename(bs, toBacking(dst));
    }

    @Override
    public void setTimes(Path f, long mtime, long atime) throws IOException {
        checkOpen();
        flushPending(f);
        backing.setTimes(toBacking(f), mtime, atime);
    }

    @Override
    public void setPermission(Path p, FsPermission permission) throws IOException {
        checkOpen();
        flushPending(p);
        backing.setPermission(toBacking(p), permission);
    }

    @Override
    public void setOwner(Path p, String username, String groupname) throws IOException {
        checkOpen();
        flushPending(p);
        backing.setOwner(toBacking(p), username, groupname);
    }

    @Override
    public boolean truncate(Path f, long newLength) throws IOException {
        checkOpen();
        flushPending(f);
        return backing.truncate(toBacking(f), newLength);
    }

    /** Operations the backing store must do on the file itself write a pending file back first. */
    private void flushPending(Path f) throws IOException {
        if (writeBack != null) {
            writeBack.manager().writeBackNow(writeBack.manager().pendingUnder(key(toBacking(f))));
        }
    }

    @Override
    public FsStatus getStatus(Path p) throws IOException {
        checkOpen();
        return backing.getStatus(p == null ? null : toBacking(p));
    }

    // ---- data -----------------------------------------------------------------------------

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        checkOpen();
        Path b = toBacking(f);
        if (writeBack != null) {
            var pf = writeBack.manager().pending(key(b));
            if (pf.isPresent()) {
                if (!pf.get().closed()) {
                    throw new FileNotFoundException(f + " is being written");
                }
                return new FSDataInputStream(new SsCacheInputStream(io, fills,
                        pf.get().version(), backing, b, true, ioStatistics, statistics));
            }
        }
        FileStatus st = backing.getFileStatus(b);
        if (st.isDirectory()) {
            throw new FileNotFoundException(f + " is a directory");
        }
        return new FSDataInputStream(new SsCacheInputStream(io, fills, FileVersion.of(st),
                backing, b, false, ioStatistics, statistics));
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite,
                                     int bufferSize, short replication, long blockSize,
                                     Progressable progress) throws IOException {
        checkOpen();
        Path b = toBacking(f);
        if (writeBack == null) {
            FSDataOutputStream out = backing.create(b, permission, overwrite, bufferSize,
                    replication, blockSize, progress);
            return new FSDataOutputStream(new WriteThroughOutputStream(out, backing, b, io,
                    UniqueClock.next()), statistics);
        }
        return createWriteBack(f, b, overwrite, true);
    }

    @Override
    public FSDataOutputStream createNonRecursive(Path f, FsPermission permission,
                                                 EnumSet<CreateFlag> flags, int bufferSize,
                                                 short replication, long blockSize,
                                                 Progressable progress) throws IOException {
        checkOpen();
        Path b = toBacking(f);
        boolean overwrite = flags.contains(CreateFlag.OVERWRITE);
        if (writeBack == null) {
            FSDataOutputStream out = backing.createNonRecursive(b, permission, flags,
                    bufferSize, replication, blockSize, progress);
            return new FSDataOutputStream(new WriteThroughOutputStream(out, backing, b, io,
                    UniqueClock.next()), statistics);
        }
        return createWriteBack(f, b, overwrite, false);
    }

    private FSDataOutputStream createWriteBack(Path f, Path b, boolean overwrite,
                                               boolean recursive) throws IOException {
        try {
            FileStatus st = backing.getFileStatus(b);
            if (st.isDirectory()) {
                throw new FileAlreadyExistsException(f + " is a directory");
            }
            if (!overwrite) {
                throw new FileAlreadyExistsException(f + " exists");
            }
        } catch (FileNotFoundException e) {
            // a new file
        }
        Path parent = b.getParent();
        if (parent != null) {
            if (recursive) {
                backing.mkdirs(parent);
            } else if (!backing.getFileStatus(parent).isDirectory()) {
                throw new org.apache.hadoop.fs.ParentNotDirectoryException(f.getParent()
                        + " is not a directory");
            }
        }
        WriteBackManager m = writeBack.manager();
        return new FSDataOutputStream(new WriteBackOutputStream(m, m.create(b, overwrite)),
                statistics);
    }

    @Override
    public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
            throws IOException {
        checkOpen();
        flushPending(f);
        return backing.append(toBacking(f), bufferSize, progress);
    }

    /**
     * The backing store's block locations, cut into slices of the file's block size (a
     * store such as file:// gives one location for the whole file); a slice whose first
     * cache block is in the drive also names the drive's host
     * ({@code smartssd.device.DRIVE.host}), first. Cost: one drive READ of one block per slice.
     */
    @Override
    public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len)
            throws IOException {
        checkOpen();
        if (file == null) {
            return null;
        }
        if (start < 0 || len < 0) {
            throw new IllegalArgumentException("invalid start or length: " + start + ", " + len);
        }
        Path b = toBacking(file.getPath());
        String driveName = driveHost + ":" + 9866;
        if (writeBack != null && writeBack.manager().pending(key(b)).isPresent()) {
            if (file.getLen() <= start) {
                return new BlockLocation[0];
            }
            return new BlockLocation[] {new BlockLocation(new String[] {driveName},
                    new String[] {driveHost}, 0, file.getLen())};
        }
        FileStatus st = backing.getFileStatus(b);
        BlockLocation[] locations = backing.getFileBlockLocations(st, start, len);
        if (locations == null || st.isDirectory()) {
            return locations;
        }
        FileVersion version = FileVersion.of(st);
        byte[] digest = version.digest();
        long slice = st.getBlockSize() > 0 ? st.getBlockSize() : getDefaultBlockSize(file.getPath());
        long end = start + len;
        List<BlockLocation> out = new ArrayList<>();
        for (BlockLocation l : locations) {
            long lEnd = l.getOffset() + l.getLength();
            for (long off = l.getOffset(); off < lEnd || l.getLength() == 0; off += slice) {
                long n = Math.min(slice, lEnd - off);
                if (l.getLength() != 0 && (off + n <= start || off >= end)) {
                    continue;
                }
                boolean cached = n > 0 && io.holds(version, digest, off / io.payload());
                out.add(new BlockLocation(
                        cached ? prepend(driveName, l.getNames()) : l.getNames(),
                        cached ? prepend(driveHost, l.getHosts()) : l.getHosts(),
                        l.getTopologyPaths(), off, n, l.isCorrupt()));
                if (l.getLength() == 0) {
                    break;
                }
            }
        }
        return out.toArray(new BlockLocation[0]);
    }

    private static String[] prepend(String first, String[] rest) {
        List<String> all = new ArrayList<>();
        all.add(first);
        for (String s : rest) {
            if (!s.equals(first)) {
                all.add(s);
            }
        }
        return all.toArray(new String[0]);
    }

    // ---- capabilities, statistics, life ---------------------------------------------------

    @Override
    public boolean hasPathCapability(Path path, String capability) throws IOException {
        switch (PathCapabilitiesSupport.validatePathCapabilityArgs(makeQualified(path),
                capability)) {
            case CommonPathCapabilities.FS_CONCAT:
            case CommonPathCapabilities.FS_SNAPSHOTS:
            case CommonPathCapabilities.FS_PATHHANDLES:
            case CommonPathCapabilities.FS_SYMLINKS:
                return false;
            default:
                return backing.hasPathCapability(toBacking(path), capability);
        }
    }

    /** This instance's reads and fills, plus the drive's write-back counters in write-back mode. */
    @Override
    public IOStatistics getIOStatistics() {
        IOStatisticsSnapshot snapshot = new IOStatisticsSnapshot(ioStatistics);
        if (writeBack != null) {
            snapshot.aggregate(writeBack.manager().statistics());
        }
        return snapshot;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            super.close();
        } finally {
            closed = true;
            closeQuietly();
        }
    }

    private void closeQuietly() throws IOException {
        IOException first = null;
        for (AutoCloseable c : Arrays.asList(fills, writeBack, backing, lease)) {
            if (c == null) {
                continue;
            }
            try {
                c.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            } catch (Exception e) {
                first = first == null ? new IOException(e) : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public String toString() {
        return "SsCacheFileSystem[" + uri + " -> " + backingRoot + ", " + mode.key() + "]";
    }
}
