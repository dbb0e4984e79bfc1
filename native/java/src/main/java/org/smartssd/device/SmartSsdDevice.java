package org.smartssd.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The one door to a Smart SSD, real ({@code sg:/dev/sdX}) or emulated ({@code emu:/path.img}
 * in this process, {@code unix:/path.sock} served by smartssd-devd). It owns the native
 * handle, a small pool of direct buffers, adaptive tasklet polling and the host-side link
 * byte count.
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
 * {@link NamespaceOps}'s, tasklets {@link TaskletOps}'s, eBPF programs {@link ProgramOps}'s;
 * they, {@link ObjectAttributes}, {@link SolidStateCache}, {@link ChunkedDrive} and
 * {@link BlockTarget} make their native calls, all in {@link SmartSsdNative}, through
 * {@link DeviceSession#withHandle}.
 */
public final class SmartSsdDevice implements AutoCloseable {
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
    private final ObjectAttributes attributes;

    private SmartSsdDevice(DeviceSession session) {
        this.session = session;
        this.drive = new DriveOps(session);
        this.namespace = new NamespaceOps(session);
        this.tasklets = new TaskletOps(session);
        this.programs = new ProgramOps(session);
        this.attributes = new ObjectAttributes(session);
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
        return new SmartSsdDevice(DeviceSession.open(uri, options));
    }

    /** {@code cacheSharePercent}: {@link EmulatedFormat#DEFAULT_CACHE_SHARE_PERCENT} where
     *  the flash has room for a cache part, else none. */
    public static final int CACHE_SHARE_DEFAULT = -1;

    /** Formats an emulated drive's image: {@link EmulatedFormat#of} (no cache). */
    public static void formatEmulated(Path image, String profile, long capacityBytes,
                                      int maxObjects) throws IOException {
        EmulatedFormat.of(profile, capacityBytes, maxObjects).format(image);
    }

    /** The same with the cache's share: {@link EmulatedFormat#withCacheShare}. */
    public static void formatEmulated(Path image, String profile, long capacityBytes,
                                      int maxObjects, int cacheSharePercent) throws IOException {
        EmulatedFormat.of(profile, capacityBytes, maxObjects).withCacheShare(cacheSharePercent)
                .format(image);
    }

    /** The same, every option of {@link EmulatedFormat} given. */
    public static void formatEmulated(Path image, String profile, long capacityBytes,
                                      int maxObjects, int cacheSharePercent, String bufferPolicy,
                                      long bufferBytes, int bufferThreshold, boolean force,
                                      DriveInterface driveInterface) throws IOException {
        new EmulatedFormat(profile, capacityBytes, maxObjects, cacheSharePercent, bufferPolicy,
                bufferBytes, bufferThreshold, force, driveInterface).format(image);
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

    /** For the parts that hold only the device ({@link SharedDriveEnergy}). */
    DeviceSession session() {
        return session;
    }

    /** Payload bytes this object sent to the drive (host-side count). */
    public long bytesToDrive() {
        return session.bytesToDrive.get();
    }

    /** Payload bytes this object received from the drive (host-side count). */
    public long bytesFromDrive() {
        return session.bytesFromDrive.get();
    }

    /**
     * What this object has done with the drive since it was opened, counted on the host.
     * Reconnects are the sessions the native library opened again (it does so on the next
     * call after the link closed or the daemon restarted).
     */
    public ClientStatistics statistics() throws IOException {
        long sessions = session.sessionsOpened();
        return new ClientStatistics(session.calls.get(), session.errors.get(),
                Math.max(0, sessions - 1), session.bytesToDrive.get(),
                session.bytesFromDrive.get(), session.taskletRuns.get());
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

    /** The named attributes of this drive's objects. */
    public ObjectAttributes attributes() {
        return attributes;
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

    @Override
    public String toString() {
        return "SmartSsdDevice[" + session.uri + (isClosed() ? ", closed]" : "]");
    }
}
