package org.smartssd.fs;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.impl.PathCapabilitiesSupport;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;
import org.smartssd.device.FsStat;
import org.smartssd.device.ObjectStat;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.impl.BlockLocations;
import org.smartssd.fs.impl.CreateOperation;
import org.smartssd.fs.impl.DeleteOperation;
import org.smartssd.fs.impl.DriveRegistry;
import org.smartssd.fs.impl.DriveResolver;
import org.smartssd.fs.impl.DriveStore;
import org.smartssd.fs.impl.ErrorTranslation;
import org.smartssd.fs.impl.FileSystemMetrics;
import org.smartssd.fs.impl.GetFileStatusOperation;
import org.smartssd.fs.impl.ListingOperation;
import org.smartssd.fs.impl.MkdirOperation;
import org.smartssd.fs.impl.OpenOperation;
import org.smartssd.fs.impl.RenameOperation;
import org.smartssd.fs.impl.SetTimesOperation;
import org.smartssd.fs.impl.StoreContext;
import org.smartssd.fs.impl.TailCache;
import org.smartssd.fs.impl.TruncateOperation;
import org.smartssd.fs.impl.XAttrOperation;

/**
 * {@code smartssd://NAME/path}: a Hadoop file system whose files live in the object store of
 * the drive NAME ({@code smartssd.device.NAME.uri}). A facade: every operation is a class in
 * {@code org.smartssd.fs.impl} that states its drive command cost.
 *
 * <p>The drive holds the namespace; this class keeps none, so every process on the drive
 * (through smartssd-devd) sees every change at once. All instances in a JVM share one
 * {@link SmartSsdDevice} per drive ({@link DriveRegistry}).
 */
public class SmartSsdFileSystem extends FileSystem implements IOStatisticsSource {
    static {
        Configuration.addDefaultResource("smartssd-default.xml");
    }

    private URI uri;
    private Path workingDir;
    private StoreContext context;
    private DriveStore store;
    private DriveRegistry.Lease lease;
    private FileSystemMetrics metrics;
    private int writeBuffer;
    private int writeQueueDepth;
    private int readahead;
    private TailCache tailCache;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Set<SmartSsdOutputStream> writers = ConcurrentHashMap.newKeySet();
    private IOStatisticsStore ioStatistics;

    /** The public no-argument constructor FileSystem's service loading needs; cheap. */
    public SmartSsdFileSystem() {
    }

    @Override
    public String getScheme() {
        return SmartSsdConstants.SCHEME;
    }

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        setConf(conf);
        SmartSsdKeys.warnUnknown(conf);
        String device = name.getAuthority();
        if (device == null || device.isEmpty()) {
            throw new IOException("'" + name + "' names no device: use smartssd://NAME/path, "
                    + "NAME being configured by " + SmartSsdConstants.DEVICE_PREFIX
                    + "NAME" + SmartSsdConstants.DEVICE_URI_SUFFIX);
        }
        uri = URI.create(SmartSsdConstants.SCHEME + "://" + device);
        DriveResolver.Resolved drive = DriveResolver.resolve(device, conf);
        List<String> counters = new ArrayList<>(List.of(StoreStatisticNames.OP_GET_FILE_STATUS,
                StoreStatisticNames.OP_MKDIRS, StoreStatisticNames.OP_CREATE,
                StoreStatisticNames.OP_OPEN, StoreStatisticNames.OP_APPEND,
                StoreStatisticNames.OP_DELETE, StoreStatisticNames.OP_RENAME,
                StoreStatisticNames.OP_LIST_STATUS, StoreStatisticNames.OP_SET_TIMES,
                StoreStatisticNames.OP_TRUNCATE, StoreStatisticNames.OP_GET_STATUS));
        counters.addAll(List.of(XAttrOperation.COUNTERS));
        counters.add(SmartSsdInputStream.TAIL_CACHE_HITS);
        counters.add(SmartSsdInputStream.TAIL_CACHE_BYTES);
        for (String c : DriveStore.COMMANDS) {
            counters.add(DriveStore.COMMAND_PREFIX + c);
        }
        ioStatistics = IOStatisticsBinding.iostatisticsStore()
                .withCounters(counters.toArray(new String[0])).build();
        UserGroupInformation ugi = UserGroupInformation.getCurrentUser();
        String user = ugi.getShortUserName();
        String group;
        try {
            group = ugi.getPrimaryGroupName();
        } catch (IOException e) {
            group = user;
        }
        context = new StoreContext(uri, device, drive.uri(), drive.host(),
                conf.getLongBytes(SmartSsdConstants.BLOCK_SIZE,
                        SmartSsdConstants.BLOCK_SIZE_DEFAULT),
                user, group, conf, ioStatistics, statistics);
        writeBuffer = (int) conf.getLongBytes(SmartSsdConstants.WRITE_BUFFER,
                SmartSsdConstants.WRITE_BUFFER_DEFAULT);
        writeQueueDepth = conf.getInt(SmartSsdConstants.WRITE_QUEUE_DEPTH,
                SmartSsdConstants.WRITE_QUEUE_DEPTH_DEFAULT);
        if (writeQueueDepth < 1 || writeQueueDepth > SmartSsdConstants.QUEUE_DEPTH_MAX) {
            throw new IllegalArgumentException(SmartSsdConstants.WRITE_QUEUE_DEPTH + " = "
                    + writeQueueDepth + " is outside 1.." + SmartSsdConstants.QUEUE_DEPTH_MAX);
        }
        readahead = (int) conf.getLongBytes(SmartSsdConstants.READAHEAD,
                SmartSsdConstants.READAHEAD_DEFAULT);
        long tailBytes = conf.getLongBytes(SmartSsdConstants.TAIL_CACHE_BYTES,
                SmartSsdConstants.TAIL_CACHE_BYTES_DEFAULT);
        long tailCapacity = conf.getLongBytes(SmartSsdConstants.TAIL_CACHE_CAPACITY,
                SmartSsdConstants.TAIL_CACHE_CAPACITY_DEFAULT);
        if (tailBytes < 0 || tailCapacity < tailBytes) {
            throw new IllegalArgumentException(SmartSsdConstants.TAIL_CACHE_BYTES + " = "
                    + tailBytes + " must be 0 or more and at most "
                    + SmartSsdConstants.TAIL_CACHE_CAPACITY + " = " + tailCapacity);
        }
        tailCache = new TailCache(tailBytes, tailCapacity);
        lease = DriveRegistry.acquire(drive.uri(), SmartSsdDevice::open);
        store = new DriveStore(lease.device(), ioStatistics);
        metrics = FileSystemMetrics.register(device, ioStatistics);
        workingDir = getHomeDirectory();
    }

    @Override
    public URI getUri() {
        return uri;
    }

    /** What operations get: the drive, the statistics, the path mapping. */
    public StoreContext storeContext() {
        return context;
    }

    /** The shared device this file system uses. */
    public SmartSsdDevice device() throws IOException {
        checkOpen();
        return store.device();
    }

    private void checkOpen() throws IOException {
        if (closed.get()) {
            throw new IOException(uri + ": the file system is closed");
        }
    }

    private Path qualify(Path p) {
        return makeQualified(p);
    }

    /** A change through this instance: the tail cache forgets p and what is under it. */
    private Path changing(Path p) {
        tailCache.invalidate(context.pathToKey(p));
        return p;
    }

    /**
     * Drops what this instance's tail cache holds, as {@code echo 1 > /proc/sys/vm/drop_caches}
     * does the kernel's page cache: the next reader of each file's end fetches it from the
     * drive again. For measuring a job from a cold cache in a JVM that has read the files
     * before, or giving the memory back. Open streams go on reading, from the drive where
     * the cache held their bytes.
     *
     * @return the bytes the cache held
     */
    public long dropTailCache() {
        return tailCache.clear();
    }

    /** The tail cache of this instance, shared by its input streams. */
    TailCache tailCache() {
        return tailCache;
    }

    @Override
    public Path getWorkingDirectory() {
        return workingDir;
    }

    @Override
    public void setWorkingDirectory(Path dir) {
        workingDir = qualify(dir);
    }

    @Override
    public long getDefaultBlockSize() {
        return context.blockSize();
    }

    @Override
    public long getDefaultBlockSize(Path f) {
        return context.blockSize();
    }

    /** No delegation tokens: the drive has no authentication of its own. */
    @Override
    public String getCanonicalServiceName() {
        return null;
    }

    // ---- namespace ------------------------------------------------------------------------

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
        checkOpen();
        return new GetFileStatusOperation(context, qualify(f), store).execute();
    }

    @Override
    public boolean mkdirs(Path f, FsPermission permission) throws IOException {
        checkOpen();
        return new MkdirOperation(context, qualify(f), store).execute();
    }

    @Override
    public boolean delete(Path f, boolean recursive) throws IOException {
        checkOpen();
        return new DeleteOperation(context, changing(qualify(f)), recursive, store).execute();
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        checkOpen();
        return new RenameOperation(context, changing(qualify(src)), changing(qualify(dst)),
                store).execute();
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
        checkOpen();
        return new ListingOperation(context, qualify(f), store).listAll();
    }

    @Override
    public RemoteIterator<FileStatus> listStatusIterator(Path f) throws IOException {
        checkOpen();
        return new ListingOperation(context, qualify(f), store).execute();
    }

    @Override
    public void setTimes(Path f, long mtime, long atime) throws IOException {
        checkOpen();
        new SetTimesOperation(context, changing(qualify(f)), mtime, atime, store).execute();
    }

    /** Names in the {@code user.} namespace; values up to the drive's 1024 bytes per file. */
    @Override
    public void setXAttr(Path path, String name, byte[] value, EnumSet<XAttrSetFlag> flag)
            throws IOException {
        checkOpen();
        XAttrOperation.set(context, qualify(path), name, value, flag, store).execute();
    }

    @Override
    public byte[] getXAttr(Path path, String name) throws IOException {
        checkOpen();
        return XAttrOperation.get(context, qualify(path), name, store).execute();
    }

    @Override
    public Map<String, byte[]> getXAttrs(Path path) throws IOException {
        checkOpen();
        return XAttrOperation.getMap(context, qualify(path), null, store).execute();
    }

    @Override
    public Map<String, byte[]> getXAttrs(Path path, List<String> names) throws IOException {
        checkOpen();
        return XAttrOperation.getMap(context, qualify(path), names, store).execute();
    }

    @Override
    public List<String> listXAttrs(Path path) throws IOException {
        checkOpen();
        return XAttrOperation.list(context, qualify(path), store).execute();
    }

    @Override
    public void removeXAttr(Path path, String name) throws IOException {
        checkOpen();
        XAttrOperation.remove(context, qualify(path), name, store).execute();
    }

    @Override
    public boolean truncate(Path f, long newLength) throws IOException {
        checkOpen();
        return new TruncateOperation(context, changing(qualify(f)), newLength, store).execute();
    }

    /** The block size slices of the file, each naming the host that holds the drive. */
    @Override
    public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len)
            throws IOException {
        checkOpen();
        if (file == null) {
            return null;
        }
        return BlockLocations.of(context, file, start, len);
    }

    /** Capacity and free space of the drive's object store. Cost: one FSSTAT. */
    @Override
    public FsStatus getStatus(Path p) throws IOException {
        checkOpen();
        context.countOperation(StoreStatisticNames.OP_GET_STATUS);
        try {
            FsStat st = store.fsStat();
            return new FsStatus(st.capacityBytes(), st.capacityBytes() - st.freeBytes(),
                    st.freeBytes());
        } catch (IOException e) {
            throw ErrorTranslation.translate(context, "fsstat", p == null ? uri : qualify(p), e);
        }
    }

    // ---- data -----------------------------------------------------------------------------

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        checkOpen();
        Path p = qualify(f);
        ObjectStat st = new OpenOperation(context, p, false, store).execute();
        return new FSDataInputStream(new SmartSsdInputStream(context, store, p,
                TailCache.Version.of(st), readahead, tailCache));
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite,
                                     int bufferSize, short replication, long blockSize,
                                     Progressable progress) throws IOException {
        return create(f, overwrite, true, progress);
    }

    @Override
    public FSDataOutputStream createNonRecursive(Path f, FsPermission permission,
                                                 EnumSet<CreateFlag> flags, int bufferSize,
                                                 short replication, long blockSize,
                                                 Progressable progress) throws IOException {
        if (flags.contains(CreateFlag.APPEND)) {
            throw new UnsupportedOperationException(f + ": createNonRecursive with APPEND: "
                    + "use append()");
        }
        return create(f, flags.contains(CreateFlag.OVERWRITE), false, progress);
    }

    private FSDataOutputStream create(Path f, boolean overwrite, boolean recursive,
                                      Progressable progress) throws IOException {
        checkOpen();
        Path p = changing(qualify(f));
        long oid = new CreateOperation(context, p, overwrite, recursive, store).execute();
        return new FSDataOutputStream(writer(p, oid, 0, progress), statistics, 0);
    }

    /**
     * Appends at the end of an existing file: writes go to offset = size, which the drive's
     * object store supports. One writer at a time: the drive has no leases, so two writers
     * of one file would write at the same offsets.
     */
    @Override
    public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
            throws IOException {
        checkOpen();
        Path p = changing(qualify(f));
        ObjectStat st = new OpenOperation(context, p, true, store).execute();
        return new FSDataOutputStream(writer(p, st.oid(), st.size(), progress), statistics,
                st.size());
    }

    private SmartSsdOutputStream writer(Path p, long oid, long start, Progressable progress) {
        SmartSsdOutputStream out = new SmartSsdOutputStream(context, store, p, oid, start,
                writeBuffer, writeQueueDepth, progress, w -> {
                    writers.remove(w);
                    changing(p);
                });
        writers.add(out);
        return out;
    }

    // ---- capabilities, statistics, life ----------------------------------------------------

    @Override
    public boolean hasPathCapability(Path path, String capability) throws IOException {
        switch (PathCapabilitiesSupport.validatePathCapabilityArgs(makeQualified(path),
                capability)) {
            case CommonPathCapabilities.FS_APPEND:
            case CommonPathCapabilities.FS_TRUNCATE:
            case CommonPathCapabilities.FS_XATTRS:
                return true;
            case CommonPathCapabilities.FS_CONCAT:
            case CommonPathCapabilities.FS_CHECKSUMS:
            case CommonPathCapabilities.FS_PERMISSIONS:
            case CommonPathCapabilities.FS_ACLS:
            case CommonPathCapabilities.FS_SYMLINKS:
            case CommonPathCapabilities.FS_SNAPSHOTS:
            case CommonPathCapabilities.FS_STORAGEPOLICY:
            case CommonPathCapabilities.FS_PATHHANDLES:
            case CommonPathCapabilities.VIRTUAL_BLOCK_LOCATIONS:
            case CommonPathCapabilities.DIRECTORY_LISTING_INCONSISTENT:
                return false;
            default:
                return super.hasPathCapability(path, capability);
        }
    }

    @Override
    public IOStatistics getIOStatistics() {
        return ioStatistics;
    }

    /**
     * Deletes the paths marked delete-on-exit, closes the output streams still open (their
     * buffered bytes are written), and gives back this instance's reference to the drive.
     * Later calls throw; a second close does nothing.
     */
    @Override
    public void close() throws IOException {
        if (closed.get()) {
            return;
        }
        IOException first = null;
        try {
            super.close();
        } catch (IOException e) {
            first = e;
        }
        closed.set(true);
        for (SmartSsdOutputStream out : new ArrayList<>(writers)) {
            try {
                out.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (lease != null) {
            lease.close();
        }
        if (metrics != null) {
            metrics.close();
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public String toString() {
        return "SmartSsdFileSystem[" + (context == null ? "uninitialized" : context.toString())
                + (closed.get() ? ", closed]" : "]");
    }
}
