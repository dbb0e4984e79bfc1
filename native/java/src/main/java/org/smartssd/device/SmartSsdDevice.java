package org.smartssd.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The one door to a Smart SSD, real ({@code sg:/dev/sdX}) or emulated ({@code emu:/path.img}
 * in this process, {@code unix:/path.sock} served by smartssd-devd). It owns the native
 * handle, a small pool of direct buffers, adaptive tasklet polling and the host-side link
 * byte count. Nothing else calls JNI.
 *
 * <p>Thread-safe: libsmartssd serialises what must be serialised, and every call here holds
 * the handle's in-flight count, so {@link #close()} never frees a pointer a call still uses.
 * BUSY answers (the drive's reply slots or reply memory taken) are waited out inside
 * libsmartssd: a call waits until a reply is taken or a short backoff passes and sends again,
 * and queued reads and writes ({@link #readRanges}, queued writes) keep fewer commands in the
 * drive; a {@link SmartSsdException} of reason {@link Reason#BUSY} means the drive had no room for
 * {@link Options#busyRetryMs()} on end.
 *
 * <p>Costs: each method is one protocol command (a SEND/RECV pair) unless it says otherwise.
 *
 * <p>A facade: the drive's own commands are {@link DriveOps}'s, paths and object data
 * {@link NamespaceOps}'s, tasklets {@link TaskletOps}'s; all three make their native calls
 * through {@link DeviceSession#withHandle}. The native methods are declared here, the class
 * the JNI library binds.
 */
public final class SmartSsdDevice implements AutoCloseable {
    static {
        NativeLoader.load();
    }

    /** How to open a drive. */
    public record Options(int timeoutMs, int busyRetryMs, PollPolicy pollPolicy) {
        /** libsmartssd's defaults: 30 s per sg command, 10 s of waiting out BUSY. */
        public static final Options DEFAULT = new Options(0, 0, PollPolicy.DEFAULT);

        public Options {
            if (timeoutMs < 0 || busyRetryMs < 0) {
                throw new IllegalArgumentException("timeouts must not be negative");
            }
            Objects.requireNonNull(pollPolicy, "pollPolicy");
        }
    }

    /** How {@link #create} treats existing names and missing parents. */
    public enum CreateOption {
        /** Fail with {@link ObjectExistsException} when the name exists. */
        EXCLUSIVE(0x1),
        /** Create missing parent directories. */
        PARENTS(0x2);

        final int flag;

        CreateOption(int flag) {
            this.flag = flag;
        }
    }

    private final DeviceSession session;
    private final DriveOps drive;
    private final NamespaceOps namespace;
    private final TaskletOps tasklets;
    private final ProgramOps programs;

    private SmartSsdDevice(String uri, Options options, long ptr) {
        this.session = new DeviceSession(uri, options,
                new NativeHandle(ptr, SmartSsdDevice::close0, uri), transport0(ptr));
        this.drive = new DriveOps(session);
        this.namespace = new NamespaceOps(session);
        this.tasklets = new TaskletOps(session);
        this.programs = new ProgramOps(session);
    }

    /** Opens a drive with default options. */
    public static SmartSsdDevice open(String uri) throws IOException {
        return open(uri, Options.DEFAULT);
    }

    /**
     * Opens a drive and a protocol session on it.
     *
     * @param uri {@code emu:/path/drive.img}, {@code unix:/path/dev.sock} or {@code sg:/dev/sdX}
     * @throws NoSuchObjectException when the image, socket or device does not exist
     * @throws SmartSsdException     (EBUSY) when an emu image is open elsewhere (use the daemon)
     */
    public static SmartSsdDevice open(String uri, Options options) throws IOException {
        Objects.requireNonNull(uri, "uri");
        if (!(uri.startsWith("emu:") || uri.startsWith("unix:") || uri.startsWith("sg:"))) {
            throw new IllegalArgumentException("device URI must start with emu:, unix: or sg:, "
                    + "got '" + uri + "'");
        }
        long rc = open0(DeviceSession.utf8z(uri), options.timeoutMs(), options.busyRetryMs());
        if (rc <= 0) {
            throw DeviceSession.fail(rc == 0 ? DeviceSession.packed(Errno.EFAULT, 0) : rc, uri,
                    "open");
        }
        return new SmartSsdDevice(uri, options, rc);
    }

    /**
     * Creates (or overwrites) an emulated drive's image and formats it: the emulator's factory
     * step, after which {@code emu:IMAGE} opens it and smartssd-devd can serve it.
     *
     * @param profile       model profile name (see {@link #emulatorProfiles()}) or a path to a
     *                      profile file; null for the default, kang-smartssd
     * @param capacityBytes raw flash capacity, rounded up to whole blocks on every die; 0 for
     *                      the profile's capacity. The drive offers less to files: the
     *                      profile's over-provisioning and the object store's metadata.
     * @param maxObjects    object table size; 0 for the object store's default
     */
    public static void formatEmulated(java.nio.file.Path image, String profile,
                                      long capacityBytes, int maxObjects) throws IOException {
        formatEmulated(image, profile, capacityBytes, maxObjects, 0);
    }

    /** The solid-state cache's share of the flash that {@code smartssd format} gives a drive
     *  where the flash has room for a cache part. */
    public static final int DEFAULT_CACHE_SHARE_PERCENT = 25;
    /** {@code cacheSharePercent}: {@link #DEFAULT_CACHE_SHARE_PERCENT} where the flash has
     *  room for a cache part, else none. */
    public static final int CACHE_SHARE_DEFAULT = -1;

    /**
     * As {@link #formatEmulated(java.nio.file.Path, String, long, int)}, with
     * {@code cacheSharePercent} % of the flash (0 to 90) for the solid-state cache
     * ({@link #cache()}); 0 gives none, as the four-argument form does;
     * {@link #CACHE_SHARE_DEFAULT} what {@code smartssd format} gives.
     */
    public static void formatEmulated(java.nio.file.Path image, String profile,
                                      long capacityBytes, int maxObjects, int cacheSharePercent)
            throws IOException {
        formatEmulated(image, profile, capacityBytes, maxObjects, cacheSharePercent, null, 0, 0);
    }

    /**
     * The same with the drive's DRAM buffer chosen too: every host read and write goes
     * through it.
     *
     * @param bufferPolicy    none, lru, fab, bplru, lbclock, hbm, or the merge cache nv-wb,
     *                        nv-sub, nv-sat (with +cache, +prefetch or +both); null for the firmware's
     *                        default (hbm)
     * @param bufferBytes     its size, a multiple of the page size; 0 for the default (4 MiB,
     *                        or two erase blocks where that is more)
     * @param bufferThreshold HBM's migration threshold in pages; 0 for the dynamic one
     */
    public static void formatEmulated(java.nio.file.Path image, String profile,
                                      long capacityBytes, int maxObjects, int cacheSharePercent,
                                      String bufferPolicy, long bufferBytes, int bufferThreshold)
            throws IOException {
        formatEmulated(image, profile, capacityBytes, maxObjects, cacheSharePercent, bufferPolicy,
                bufferBytes, bufferThreshold, false);
    }

    /**
     * The same, saying whether to overwrite what is there. Without {@code force} an existing
     * file is formatted only when that loses nothing (it is empty, or an image whose drive
     * holds no object): a file that is not an image, or an image holding objects, is refused
     * ({@link java.nio.file.FileAlreadyExistsException}-like failure naming what is there).
     */
    public static void formatEmulated(java.nio.file.Path image, String profile,
                                      long capacityBytes, int maxObjects, int cacheSharePercent,
                                      String bufferPolicy, long bufferBytes, int bufferThreshold,
                                      boolean force)
            throws IOException {
        formatEmulated(image, profile, capacityBytes, maxObjects, cacheSharePercent, bufferPolicy,
                bufferBytes, bufferThreshold, force, DriveInterface.FTL);
    }

    /**
     * The same with the drive's interface: {@link DriveInterface#FTL} the drive with objects,
     * tasklets and cache; {@link DriveInterface#OPEN_CHANNEL} or {@link DriveInterface#ZONED}
     * the whole flash as chunks the host writes itself ({@link #chunked()}), the cache share
     * and buffer then unused.
     */
    public static void formatEmulated(java.nio.file.Path image, String profile,
                                      long capacityBytes, int maxObjects, int cacheSharePercent,
                                      String bufferPolicy, long bufferBytes, int bufferThreshold,
                                      boolean force, DriveInterface driveInterface)
            throws IOException {
        if (capacityBytes < 0 || maxObjects < 0 || bufferBytes < 0 || bufferThreshold < 0) {
            throw new IllegalArgumentException("capacity, max objects and the buffer's size and "
                    + "threshold must not be negative");
        }
        if (cacheSharePercent < CACHE_SHARE_DEFAULT || cacheSharePercent > 90) {
            throw new IllegalArgumentException("the cache share is a percentage from 0 to 90 "
                    + "(or CACHE_SHARE_DEFAULT), got " + cacheSharePercent);
        }
        ByteBuffer msg = ByteBuffer.allocateDirect(1024);
        long rc = format0(DeviceSession.utf8z(image.toAbsolutePath().toString()),
                profile == null ? null : DeviceSession.utf8z(profile), capacityBytes, maxObjects,
                cacheSharePercent,
                bufferPolicy == null ? null : DeviceSession.utf8z(bufferPolicy), bufferBytes,
                bufferThreshold, force, driveInterface.ordinal(), msg);
        if (rc < 0) {
            String detail = DeviceSession.cString(msg, 0, 1024);
            throw Errors.translate(-Errors.errnoOf(rc), Errors.reasonOf(rc), "format " + image
                    + (profile == null ? "" : " with profile " + profile)
                    + (detail.isEmpty() ? "" : " [" + detail + "]"));
        }
    }

    /** Names of the emulator's built-in model profiles. */
    public static List<String> emulatorProfiles() {
        String s = profiles0();
        return s.isEmpty() ? List.of() : List.of(s.split("\n"));
    }

    public String uri() {
        return session.uri;
    }

    /** "emu", "unix" or "sg". */
    public String transport() {
        return session.transport;
    }

    public Options options() {
        return session.options;
    }

    /**
     * Closes the session and the transport. Calls in flight finish first (the last one frees
     * the native handle); later calls fail with {@link TransportClosedException}. Idempotent.
     */
    @Override
    public void close() {
        session.handle.close();
    }

    public boolean isClosed() {
        return session.handle.isClosed();
    }

    /** Payload bytes this object sent to the drive (host-side count). */
    public long bytesToDrive() {
        return session.bytesToDrive.get();
    }

    /** Payload bytes this object received from the drive (host-side count). */
    public long bytesFromDrive() {
        return session.bytesFromDrive.get();
    }

    // ---- drive ------------------------------------------------------------------------

    /**
     * The drive's solid-state cache. Asks the drive once for its shape.
     *
     * @throws SmartSsdException (ENOSYS) when the drive was formatted without one
     */
    public SolidStateCache cache() throws IOException {
        return SolidStateCache.of(session);
    }

    /**
     * The chunks or zones of an open-channel or zoned drive ({@code smartssd format
     * --interface}). Asks the drive once for its geometry.
     *
     * @throws SmartSsdException of reason {@link Reason#WRONG_INTERFACE} on an FTL drive
     */
    public ChunkedDrive chunked() throws IOException {
        return ChunkedDrive.of(session);
    }

    /**
     * The host block target over an open-channel drive ({@link BlockTarget}), its map
     * rebuilt after a crash. Over-provisioning in per mille and the checkpoint interval in
     * lines: 0 for the defaults (100, 4); a drive keeps the over-provisioning it was first
     * opened with. Close it before this device.
     *
     * @throws SmartSsdException of reason {@link Reason#WRONG_INTERFACE} on an FTL or zoned drive
     */
    public BlockTarget blockTarget(int opPermille, int checkpointLines) throws IOException {
        return BlockTarget.open(session, opPermille, checkpointLines);
    }

    /** The solid-state cache's shape and counters; a block size of 0 when there is none. */
    public CacheCounters cacheCounters() throws IOException {
        return SolidStateCache.counters(session);
    }

    public DriveInfo info() throws IOException {
        return drive.info();
    }

    public FsStat fsStat() throws IOException {
        return drive.fsStat();
    }

    /** Makes everything written so far durable. */
    public void flush() throws IOException {
        drive.flush();
    }

    public DriveCounters counters() throws IOException {
        return drive.counters();
    }

    /** Runs the drive's object-store consistency check (every extent tree, the records,
     *  the allocator); a problem found is in the result, not an exception. */
    public DriveCheck check() throws IOException {
        return drive.check();
    }

    /**
     * The drive's in-storage queue: the tasklet runs executing on it, whichever process or
     * host started them, their pages left and the drive's own estimate of their ISP time
     * (ISP_QUEUE). Empty for a drive that does not report it (it answers BAD_OPCODE).
     */
    public Optional<IspQueue> ispQueue() throws IOException {
        return drive.ispQueue();
    }

    /** The emulator's modelled time and energy; empty for a real drive, which has none. */
    public Optional<ModelCounters> modelCounters() throws IOException {
        return drive.modelCounters();
    }

    /**
     * Joins the drive's energy ledger for tasklet instance {@code instance} (0: a task with no
     * work of its own), before the run is executed ({@link SharedDriveEnergy}).
     *
     * @return the ticket; empty for a real drive, which has no energy model
     */
    public OptionalLong energyJoin(long instance) throws IOException {
        return drive.energyJoin(instance);
    }

    /** Leaves the drive's energy ledger: with the instance's counted work as the drive
     *  reads it (before the instance is destroyed), or with none when {@code abandon}. */
    public void energyLeave(long ticket, boolean abandon) throws IOException {
        drive.energyLeave(ticket, abandon);
    }

    /** The ticket's share of the drive's energy; empty while tasks of its period run. Once
     *  returned, the ticket is forgotten. */
    public Optional<SharedDriveEnergy.Share> energyShare(long ticket) throws IOException {
        return drive.energyShare(ticket);
    }

    /** SMART health as libatasmart parses the drive's SMART data. */
    public SmartHealth health() throws IOException {
        return drive.health();
    }

    // ---- namespace --------------------------------------------------------------------

    /** Stat by path. */
    public ObjectStat lookup(String path) throws IOException {
        return namespace.lookup(path);
    }

    /** Stat by path, or empty when nothing is there. */
    public Optional<ObjectStat> find(String path) throws IOException {
        return namespace.find(path);
    }

    /** Stat by object id. */
    public ObjectStat stat(long oid) throws IOException {
        return namespace.stat(oid);
    }

    /** Creates a file, directory or output object. Returns its object id. */
    public long create(String path, ObjectType type, CreateOption... options) throws IOException {
        return namespace.create(path, type, options);
    }

    /** Creates a directory and any missing parents; an existing directory is fine. */
    public long mkdirs(String path) throws IOException {
        return create(path, ObjectType.DIRECTORY, CreateOption.PARENTS);
    }

    /** Writes all of {@code src}'s remaining bytes at {@code offset}; advances its position.
     *  One command per protocol-sized piece (up to 1 MiB). */
    public long write(long oid, long offset, ByteBuffer src, boolean fua) throws IOException {
        return namespace.write(oid, offset, src, fua, 1);
    }

    /**
     * Writes all of {@code src}'s remaining bytes (a direct buffer) at {@code offset} in
     * pieces of up to 1 MiB with up to {@code depth} (1..32) of them in the drive at once:
     * one thread's submission queue (libsmartssd's {@code ss_dev_write_queued}), so the
     * transfer of a piece overlaps the flash work of those before it. On failure the object
     * holds the pieces before the first that failed and none after it (the drive's ORDERED
     * writes), as one piece at a time would leave it.
     */
    public long write(long oid, long offset, ByteBuffer src, boolean fua, int depth)
            throws IOException {
        return namespace.write(oid, offset, src, fua, depth);
    }

    public long write(long oid, long offset, byte[] b, int off, int len, boolean fua)
            throws IOException {
        return write(oid, offset, ByteBuffer.wrap(b, off, len), fua);
    }

    /**
     * Reads up to {@code dst.remaining()} bytes at {@code offset} into {@code dst}, advancing
     * its position. Returns bytes read, short only at the end of the object (0 at or past it).
     */
    public int read(long oid, long offset, ByteBuffer dst) throws IOException {
        return namespace.read(oid, offset, dst);
    }

    /**
     * Reads {@code offsets.length} ranges of the object into {@code dst} (direct), back to
     * back in range order from its position, which advances past them all, with up to
     * {@code depth} (1..32) reads in the drive at once: one thread's submission queue
     * (libsmartssd's {@code ss_dev_read_ranges}), so the drive's channels work on several at
     * a time. Returns each range's bytes, short only at the end of the object. For vectored
     * reads.
     */
    public int[] readRanges(long oid, long[] offsets, int[] lens, ByteBuffer dst, int depth)
            throws IOException {
        return namespace.readRanges(oid, offsets, lens, dst, depth);
    }

    public int read(long oid, long offset, byte[] b, int off, int len) throws IOException {
        return read(oid, offset, ByteBuffer.wrap(b, off, len));
    }

    public void truncate(long oid, long size) throws IOException {
        namespace.truncate(oid, size);
    }

    /** Removes a file or (empty, unless {@code recursive}) directory. */
    public void remove(String path, boolean recursive) throws IOException {
        namespace.remove(path, recursive);
    }

    /** Renames {@code src} to {@code dst}; with {@code noReplace} an existing dst fails. */
    public void rename(String src, String dst, boolean noReplace) throws IOException {
        namespace.rename(src, dst, noReplace);
    }

    /** The entries of a directory. One command per 64 entries. */
    public List<DirEntry> list(String path) throws IOException {
        return namespace.list(path);
    }

    /** Sets modification and access times (ns since the epoch; negative keeps a time). */
    public void setTimes(long oid, long mtimeNs, long atimeNs) throws IOException {
        namespace.setTimes(oid, mtimeNs, atimeNs);
    }

    /**
     * Sets a named attribute of an object (durable at the next {@link #flush}). Names are
     * 1..255 UTF-8 bytes; an object holds at most 1024 bytes of names and values.
     * {@code create}: fail with {@link ObjectExistsException} if the name is set;
     * {@code replace}: fail with reason {@link Reason#NO_SUCH_ATTR} if it is not.
     */
    public void setAttr(long oid, String name, byte[] value, boolean create, boolean replace)
            throws IOException {
        if (create && replace) {
            throw new IllegalArgumentException("attribute " + name + ": create and replace");
        }
        namespace.setAttr(oid, name, value, create ? NamespaceOps.AttrMode.CREATE
                : replace ? NamespaceOps.AttrMode.REPLACE
                : NamespaceOps.AttrMode.CREATE_OR_REPLACE);
    }

    /** The value of a named attribute; reason {@link Reason#NO_SUCH_ATTR} if it is not set. */
    public byte[] getAttr(long oid, String name) throws IOException {
        return namespace.getAttr(oid, name);
    }

    /** The names of an object's attributes, in the order they were last set. */
    public List<String> listAttrs(long oid) throws IOException {
        return namespace.listAttrs(oid);
    }

    /** Removes a named attribute; reason {@link Reason#NO_SUCH_ATTR} if it is not set. */
    public void removeAttr(long oid, String name) throws IOException {
        namespace.removeAttr(oid, name);
    }

    /** Where bytes [offset, offset+length) of an object lie on the drive (up to 256 runs). */
    public List<Extent> extents(long oid, long offset, long length) throws IOException {
        return namespace.extents(oid, offset, length);
    }

    // ---- tasklets ---------------------------------------------------------------------

    /** Creates an output object for a tasklet's results. Returns its object id. */
    public long createOutput(String path, boolean exclusive) throws IOException {
        return createOutput(path, exclusive ? new CreateOption[] {CreateOption.EXCLUSIVE}
                : new CreateOption[0]);
    }

    /** Creates an output object for a tasklet's results. Returns its object id. */
    public long createOutput(String path, CreateOption... options) throws IOException {
        return tasklets.createOutput(path, options);
    }

    /**
     * Creates a tasklet instance writing into {@code outputOid} (from {@link #createOutput}).
     * Returns the instance id.
     *
     * @throws TaskletFailedException with PARAMS, LAYOUT or UNKNOWN_TASKLET when the drive
     *                                refuses the spec
     * @throws SmartSsdException      of reason {@link Reason#BUSY} when the drive has no free instance
     */
    public long createTasklet(TaskletSpec spec, long outputOid) throws IOException {
        return tasklets.createTasklet(spec, outputOid);
    }

    /** Starts a run of the instance over the input ranges. */
    public void execute(long instance, List<InputRange> inputs) throws IOException {
        tasklets.execute(instance, inputs);
    }

    /** One progress poll. */
    public TaskletProgress poll(long instance) throws IOException {
        return tasklets.poll(instance);
    }

    /** Reads output bytes of the instance at {@code offset} into {@code dst} (advancing it).
     *  Returns bytes read; 0 at the end of the output. */
    public int readOutput(long instance, long offset, ByteBuffer dst) throws IOException {
        return tasklets.readOutput(instance, offset, dst);
    }

    /** The whole output of a finished instance. */
    public byte[] readAllOutput(long instance) throws IOException {
        return tasklets.readAllOutput(instance);
    }

    /** Releases the instance; its output object stays until removed. */
    public void destroy(long instance) throws IOException {
        tasklets.destroy(instance);
    }

    /**
     * Waits until the instance is done, polling adaptively: the interval follows the rate of
     * pages the drive reports done (see {@link AdaptivePoller}), within the open options'
     * {@link PollPolicy} bounds. Never a fixed sleep.
     *
     * @param listener gets every progress poll (may be null)
     * @return the final progress, state DONE
     * @throws TaskletFailedException when the drive stopped the tasklet (budget, steps, ...)
     * @throws SmartSsdException      (ETIMEDOUT) when {@code timeout} passed first
     */
    public TaskletProgress await(long instance, Duration timeout,
                                 Consumer<TaskletProgress> listener) throws IOException {
        return tasklets.await(instance, timeout, listener);
    }

    // ---- eBPF tasklet programs (docs/tasklets.md, PROTOCOL.md 4.7) -------------------

    /**
     * Loads the program of an ELF object ({@code clang -O2 -target bpf -c}) under
     * {@code name}; the drive verifies it and keeps it across power cycles. Returns its
     * length in instructions.
     *
     * @throws SmartSsdException of reason {@link Reason#PROGRAM_REFUSED} when the drive's verifier refuses it: the message names
     *                                 the instruction and the reason
     * @throws ObjectExistsException   when a program has that name and {@code replace} is false
     */
    public int loadProgram(String name, byte[] elf, boolean replace) throws IOException {
        return programs.load(name, elf, replace);
    }

    /** The programs the drive keeps. */
    public List<LoadedProgram> listPrograms() throws IOException {
        return programs.list();
    }

    /** Removes a program ({@link NoSuchObjectException} when there is none); a run already
     *  created keeps its copy. Running one is a tasklet
     *  like any other: {@code org.smartssd.device.tasklet.BpfProgram}. */
    public void removeProgram(String name) throws IOException {
        programs.remove(name);
    }

    /** An energy accountant over this drive, with the default host power profile. */
    public EnergyAccountant energyAccountant() {
        return new EnergyAccountant(this, HostPowerProfile.fromSystemProperties());
    }

    @Override
    public String toString() {
        return "SmartSsdDevice[" + session.uri + (isClosed() ? ", closed]" : "]");
    }

    // ---- native methods: each returns a result >= 0 or -((reason << 32) | errno) --------

    static native long open0(byte[] uri, int timeoutMs, int busyRetryMs);

    static native long close0(long h);

    static native String transport0(long h);

    static native String lastMessage0();

    static native long info0(long h, ByteBuffer out);

    static native long cacheInfo0(long h, ByteBuffer out);

    static native long cacheWrite0(long h, boolean dirty, long first, long count, ByteBuffer buf,
                                   int pos, int len);

    static native long cacheRead0(long h, long first, long count, ByteBuffer buf, int pos, int len,
                                  ByteBuffer out);

    static native long cacheRange0(long h, int op, long first, long count, ByteBuffer out);

    static native long cacheScan0(long h, long instance, long fileBytes, byte[] digest,
                                  long[] ranges, int n, ByteBuffer out);

    static native long programLoad0(long h, byte[] name, ByteBuffer elf, int len, int flags);

    static native long programList0(long h, ByteBuffer out);

    static native long programRemove0(long h, byte[] name);

    static native long geometry0(long h, ByteBuffer out);

    static native long chunkReport0(long h, boolean zoned, long first, int max, ByteBuffer out);

    static native long vectorIo0(long h, boolean write, int[] ppas, int n, ByteBuffer buf,
            int pos);

    static native long chunkReset0(long h, int[] ppas, int n);

    static native long blkOpen0(long h, int opPermille, int checkpointLines);

    static native long blkClose0(long b);

    static native long blkIo0(long b, boolean write, long lba, int n, ByteBuffer buf, int pos,
                              boolean fua);

    static native long blkTrim0(long b, long lba, long n);

    static native long blkFlush0(long b);

    static native long blkStats0(long b, ByteBuffer out);

    static native long zoneMgmt0(long h, int action, long slba);

    static native long zoneAppend0(long h, long slba, ByteBuffer buf, int pos, int len);

    static native long fsstat0(long h, ByteBuffer out);

    static native long flush0(long h);

    static native long counters0(long h, ByteBuffer out);

    static native long check0(long h, ByteBuffer out);

    static native long ispQueue0(long h, ByteBuffer out);

    static native long model0(long h, ByteBuffer out);

    static native long energyJoin0(long h, long instance);

    static native long energyLeave0(long h, long ticket, boolean abandon);

    static native long energyShare0(long h, long ticket, ByteBuffer out);

    /** The wire layout of fixed reply {@code which} (0 drive info, 1 fsstat, 2 counters) as
     *  the C field lists define it: lines "name kind offset bytes", then "size bytes". */
    static native String replyLayout0(int which);

    static native long smart0(long h, ByteBuffer out, int max);

    static native long lookup0(long h, byte[] path, ByteBuffer out);

    static native long stat0(long h, long oid, ByteBuffer out);

    static native long create0(long h, byte[] path, int type, int flags);

    static native long write0(long h, long oid, long offset, ByteBuffer buf, int pos,
                                      int len, int flags, int depth);

    static native long read0(long h, long oid, long offset, ByteBuffer buf, int pos,
                                     int len);

    static native long readRanges0(long h, long oid, long[] offsets, int[] lens, ByteBuffer buf,
                                   int pos, int len, int depth, int[] counts);

    static native long truncate0(long h, long oid, long size);

    static native long remove0(long h, byte[] path, int flags);

    static native long rename0(long h, byte[] src, byte[] dst, int flags);

    static native long list0(long h, byte[] path, long cursor, ByteBuffer out, int max);

    static native long setTimes0(long h, long oid, long mtimeNs, long atimeNs);

    static native long setAttr0(long h, long oid, byte[] name, byte[] value, int flags);

    static native long getAttr0(long h, long oid, byte[] name, ByteBuffer out);

    static native long listAttrs0(long h, long oid, ByteBuffer out);

    static native long removeAttr0(long h, long oid, byte[] name);

    static native long extents0(long h, long oid, long offset, long length,
                                        ByteBuffer out, int max);

    static native long createOutput0(long h, byte[] path, int flags);

    static native long taskletCreate0(long h, ByteBuffer spec, int paramsPos,
                                              int paramsLen);

    static native long taskletExecute0(long h, long instance, ByteBuffer inputs, int pos,
                                               int n);

    static native long taskletPoll0(long h, long instance, ByteBuffer out);

    static native long taskletRead0(long h, long instance, long offset, ByteBuffer buf,
                                            int pos, int len, ByteBuffer progress);

    static native long taskletDestroy0(long h, long instance);

    static native long format0(byte[] image, byte[] profile, long capacityBytes,
                                       int maxObjects, int cacheSharePercent,
                                       byte[] bufferPolicy, long bufferBytes,
                                       int bufferThreshold, boolean force, int driveInterface,
                                       ByteBuffer message);

    static native String profiles0();
}
