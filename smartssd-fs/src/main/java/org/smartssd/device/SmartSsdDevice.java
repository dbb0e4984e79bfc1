package org.smartssd.device;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The one door to a Smart SSD, real ({@code sg:/dev/sdX}) or emulated ({@code emu:/path.img}
 * in this process, {@code unix:/path.sock} served by smartssd-devd). It owns the native
 * handle, a small pool of direct buffers, adaptive tasklet polling and the host-side link
 * byte count. Nothing else calls JNI.
 *
 * <p>Thread-safe: libsmartssd serialises what must be serialised, and every call here holds
 * the handle's in-flight count, so {@link #close()} never frees a pointer a call still uses.
 * BUSY answers are retried inside libsmartssd (with backoff, up to
 * {@link Options#busyRetryMs()}); a {@link DeviceBusyException} means that budget was spent.
 *
 * <p>Costs: each method is one protocol command (a SEND/RECV pair) unless it says otherwise.
 */
public final class SmartSsdDevice implements AutoCloseable {
    /** Scratch buffers: results the native layer fills (stat, listing, poll, SMART). */
    private static final int SCRATCH_SIZE = 64 * 1024;
    /** Staging buffers for heap data crossing to and from the drive. */
    private static final int STAGING_SIZE = 1024 * 1024;

    // Layout of results in scratch buffers, mirrored in native/jni/smartssd_jni.c.
    static final int STAT_NAME = 80;
    static final int NAME_BYTES = 256;
    static final int DIRENT_SIZE = 16 + NAME_BYTES;
    static final int LIST_MAX = 64;
    static final int EXTENT_MAX = 256;
    static final int SPEC_FIELDS = 9;
    static final int SPEC_PARAMS = 1024;
    static final int SMART_ATTRS = 64;
    static final int SMART_ATTR_SIZE = 104;
    static final int SMART_ATTR_MAX = 64;

    static {
        NativeLoader.load();
    }

    /** How to open a drive. */
    public record Options(int timeoutMs, int busyRetryMs, PollPolicy pollPolicy) {
        /** libsmartssd's defaults: 30 s per sg command, 10 s of BUSY retries. */
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

    private final String uri;
    private final Options options;
    private final NativeHandle handle;
    private final String transport;
    private final BufferPool scratch = new BufferPool(SCRATCH_SIZE, 8);
    private final BufferPool staging = new BufferPool(STAGING_SIZE, 4);
    private final AtomicLong bytesToDrive = new AtomicLong();
    private final AtomicLong bytesFromDrive = new AtomicLong();

    private SmartSsdDevice(String uri, Options options, long ptr) {
        this.uri = uri;
        this.options = options;
        this.handle = new NativeHandle(ptr, SmartSsdDevice::close0, uri);
        this.transport = transport0(ptr);
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
     * @throws DeviceBusyException   when an emu image is open elsewhere (use the daemon)
     */
    public static SmartSsdDevice open(String uri, Options options) throws IOException {
        Objects.requireNonNull(uri, "uri");
        if (!(uri.startsWith("emu:") || uri.startsWith("unix:") || uri.startsWith("sg:"))) {
            throw new IllegalArgumentException("device URI must start with emu:, unix: or sg:, "
                    + "got '" + uri + "'");
        }
        long rc = open0(utf8z(uri), options.timeoutMs(), options.busyRetryMs());
        if (rc <= 0) {
            throw fail(rc == 0 ? packed(Errno.EFAULT, 0) : rc, uri, "open");
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
        if (capacityBytes < 0 || maxObjects < 0) {
            throw new IllegalArgumentException("capacity and max objects must not be negative");
        }
        ByteBuffer msg = ByteBuffer.allocateDirect(256);
        long rc = format0(utf8z(image.toAbsolutePath().toString()),
                profile == null ? null : utf8z(profile), capacityBytes, maxObjects, msg);
        if (rc < 0) {
            String detail = cString(msg, 0, 256);
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
        return uri;
    }

    /** "emu", "unix" or "sg". */
    public String transport() {
        return transport;
    }

    public Options options() {
        return options;
    }

    /**
     * Closes the session and the transport. Calls in flight finish first (the last one frees
     * the native handle); later calls fail with {@link TransportClosedException}. Idempotent.
     */
    @Override
    public void close() {
        handle.close();
    }

    public boolean isClosed() {
        return handle.isClosed();
    }

    /** Payload bytes this object sent to the drive (host-side count). */
    public long bytesToDrive() {
        return bytesToDrive.get();
    }

    /** Payload bytes this object received from the drive (host-side count). */
    public long bytesFromDrive() {
        return bytesFromDrive.get();
    }

    // ---- drive ------------------------------------------------------------------------

    public DriveInfo info() throws IOException {
        ByteBuffer out = scratch.take();
        long h = handle.acquire();
        try {
            check(info0(h, out), "drive info");
            return DriveInfo.decode(transport, out);
        } finally {
            handle.release();
            scratch.give(out);
        }
    }

    public FsStat fsStat() throws IOException {
        ByteBuffer out = scratch.take();
        long h = handle.acquire();
        try {
            check(fsstat0(h, out), "fsstat");
            return FsStat.decode(out);
        } finally {
            handle.release();
            scratch.give(out);
        }
    }

    /** Makes everything written so far durable. */
    public void flush() throws IOException {
        long h = handle.acquire();
        try {
            check(flush0(h), "flush");
        } finally {
            handle.release();
        }
    }

    public DriveCounters counters() throws IOException {
        ByteBuffer out = scratch.take();
        long h = handle.acquire();
        try {
            check(counters0(h, out), "counters");
            return DriveCounters.decode(out);
        } finally {
            handle.release();
            scratch.give(out);
        }
    }

    /** The emulator's modelled time and energy; empty for a real drive, which has none. */
    public Optional<ModelCounters> modelCounters() throws IOException {
        ByteBuffer out = scratch.take();
        long h = handle.acquire();
        try {
            long rc = model0(h, out);
            if (rc < 0 && (Errors.errnoOf(rc) == Errno.ENOTSUP
                    || Errors.errnoOf(rc) == Errno.ENOSYS)) {
                return Optional.empty();
            }
            check(rc, "model counters");
            long[] v = longs(out, ModelCounters.SLOTS);
            return Optional.of(new ModelCounters(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7],
                    v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15], v[16], v[17], v[18]));
        } finally {
            handle.release();
            scratch.give(out);
        }
    }

    /** SMART health as libatasmart parses the drive's SMART data. */
    public SmartHealth health() throws IOException {
        ByteBuffer out = scratch.take();
        long h = handle.acquire();
        try {
            int n = (int) check(smart0(h, out, SMART_ATTR_MAX), "SMART health");
            List<SmartAttribute> attrs = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int base = SMART_ATTRS + i * SMART_ATTR_SIZE;
                int bits = (int) out.getLong(base + 32);
                attrs.add(new SmartAttribute((int) out.getLong(base), cString(out, base + 72, 32),
                        (int) out.getLong(base + 8), (int) out.getLong(base + 16),
                        (int) out.getLong(base + 24), (bits & 1) != 0, (bits & 2) != 0,
                        (bits & 4) != 0, (bits & 8) != 0, (int) out.getLong(base + 40),
                        SmartAttribute.Unit.of((int) out.getLong(base + 48)),
                        out.getLong(base + 56), out.getLong(base + 64)));
            }
            return new SmartHealth(SmartHealth.Overall.of((int) out.getLong(0)),
                    out.getLong(8) != 0, out.getLong(16), out.getLong(24), attrs);
        } finally {
            handle.release();
            scratch.give(out);
        }
    }

    // ---- namespace --------------------------------------------------------------------

    /** Stat by path. */
    public ObjectStat lookup(String path) throws IOException {
        byte[] p = path(path);
        ByteBuffer out = scratch.take();
        long h = handle.acquire();
        try {
            check(lookup0(h, p, out), "lookup", path);
            return stat(out);
        } finally {
            handle.release();
            scratch.give(out);
        }
    }

    /** Stat by path, or empty when nothing is there. */
    public Optional<ObjectStat> find(String path) throws IOException {
        try {
            return Optional.of(lookup(path));
        } catch (NoSuchObjectException e) {
            return Optional.empty();
        }
    }

    /** Stat by object id. */
    public ObjectStat stat(long oid) throws IOException {
        ByteBuffer out = scratch.take();
        long h = handle.acquire();
        try {
            check(stat0(h, oid, out), "stat", oid(oid));
            return stat(out);
        } finally {
            handle.release();
            scratch.give(out);
        }
    }

    /** Creates a file, directory or output object. Returns its object id. */
    public long create(String path, ObjectType type, CreateOption... options) throws IOException {
        byte[] p = path(path);
        int flags = 0;
        for (CreateOption o : options) {
            flags |= o.flag;
        }
        long h = handle.acquire();
        try {
            return check(create0(h, p, type.code(), flags), "create " + type.name().toLowerCase(),
                    path);
        } finally {
            handle.release();
        }
    }

    /** Creates a directory and any missing parents; an existing directory is fine. */
    public long mkdirs(String path) throws IOException {
        return create(path, ObjectType.DIRECTORY, CreateOption.PARENTS);
    }

    /** Writes all of {@code src}'s remaining bytes at {@code offset}; advances its position.
     *  One command per protocol-sized piece (up to 1 MiB). */
    public long write(long oid, long offset, ByteBuffer src, boolean fua) throws IOException {
        checkOffset(offset);
        int len = src.remaining();
        if (!src.isDirect()) {
            return stagedWrite(oid, offset, src, fua);
        }
        long h = handle.acquire();
        try {
            long n = check(write0(h, oid, offset, src, src.position(), len, fua ? 1 : 0),
                    "write", oid(oid) + " at " + offset);
            src.position(src.position() + (int) n);
            bytesToDrive.addAndGet(n);
            return n;
        } finally {
            handle.release();
        }
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
        checkOffset(offset);
        if (!dst.isDirect()) {
            return stagedRead(oid, offset, dst);
        }
        long h = handle.acquire();
        try {
            long n = check(read0(h, oid, offset, dst, dst.position(), dst.remaining()), "read",
                    oid(oid) + " at " + offset);
            dst.position(dst.position() + (int) n);
            bytesFromDrive.addAndGet(n);
            return (int) n;
        } finally {
            handle.release();
        }
    }

    public int read(long oid, long offset, byte[] b, int off, int len) throws IOException {
        return read(oid, offset, ByteBuffer.wrap(b, off, len));
    }

    public void truncate(long oid, long size) throws IOException {
        checkOffset(size);
        long h = handle.acquire();
        try {
            check(truncate0(h, oid, size), "truncate", oid(oid) + " to " + size);
        } finally {
            handle.release();
        }
    }

    /** Removes a file or (empty, unless {@code recursive}) directory. */
    public void remove(String path, boolean recursive) throws IOException {
        byte[] p = path(path);
        long h = handle.acquire();
        try {
            check(remove0(h, p, recursive ? 1 : 0), recursive ? "remove -r" : "remove", path);
        } finally {
            handle.release();
        }
    }

    /** Renames {@code src} to {@code dst}; with {@code noReplace} an existing dst fails. */
    public void rename(String src, String dst, boolean noReplace) throws IOException {
        byte[] s = path(src);
        byte[] d = path(dst);
        long h = handle.acquire();
        try {
            check(rename0(h, s, d, noReplace ? 1 : 0), "rename", src + " to " + dst);
        } finally {
            handle.release();
        }
    }

    /** The entries of a directory. One command per 64 entries. */
    public List<DirEntry> list(String path) throws IOException {
        byte[] p = path(path);
        List<DirEntry> all = new ArrayList<>();
        ByteBuffer out = scratch.take();
        long h = handle.acquire();
        try {
            long cursor = 0;
            do {
                int n = (int) check(list0(h, p, cursor, out, LIST_MAX), "list", path);
                for (int i = 0; i < n; i++) {
                    int base = 8 + i * DIRENT_SIZE;
                    all.add(new DirEntry(out.getLong(base), ObjectType.of((int) out.getLong(base + 8)),
                            cString(out, base + 16, NAME_BYTES)));
                }
                cursor = out.getLong(0);
            } while (cursor != 0);
            return all;
        } finally {
            handle.release();
            scratch.give(out);
        }
    }

    /** Sets modification and access times (ns since the epoch; negative keeps a time). */
    public void setTimes(long oid, long mtimeNs, long atimeNs) throws IOException {
        long h = handle.acquire();
        try {
            check(setTimes0(h, oid, mtimeNs < 0 ? -1 : mtimeNs, atimeNs < 0 ? -1 : atimeNs),
                    "set times of", oid(oid));
        } finally {
            handle.release();
        }
    }

    /** Where bytes [offset, offset+length) of an object lie on the drive (up to 256 runs). */
    public List<Extent> extents(long oid, long offset, long length) throws IOException {
        checkOffset(offset);
        checkOffset(length);
        ByteBuffer out = scratch.take();
        long h = handle.acquire();
        try {
            int n = (int) check(extents0(h, oid, offset, length, out, EXTENT_MAX), "extents of",
                    oid(oid));
            List<Extent> ext = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                ext.add(new Extent(out.getLong(i * 24), out.getLong(i * 24 + 8),
                        out.getLong(i * 24 + 16)));
            }
            return ext;
        } finally {
            handle.release();
            scratch.give(out);
        }
    }

    // ---- tasklets ---------------------------------------------------------------------

    /** Creates an output object for a tasklet's results. Returns its object id. */
    public long createOutput(String path, boolean exclusive) throws IOException {
        return createOutput(path, exclusive ? new CreateOption[] {CreateOption.EXCLUSIVE}
                : new CreateOption[0]);
    }

    /** Creates an output object for a tasklet's results. Returns its object id. */
    public long createOutput(String path, CreateOption... options) throws IOException {
        byte[] p = path(path);
        int flags = 0;
        for (CreateOption o : options) {
            flags |= o.flag;
        }
        long h = handle.acquire();
        try {
            return check(createOutput0(h, p, flags), "create output", path);
        } finally {
            handle.release();
        }
    }

    /**
     * Creates a tasklet instance writing into {@code outputOid} (from {@link #createOutput}).
     * Returns the instance id.
     *
     * @throws TaskletFailedException with PARAMS, LAYOUT or UNKNOWN_TASKLET when the drive
     *                                refuses the spec
     * @throws DeviceBusyException    when the drive has no free instance
     */
    public long createTasklet(TaskletSpec spec, long outputOid) throws IOException {
        int plen = spec.paramsLength();
        boolean big = SPEC_PARAMS + plen > SCRATCH_SIZE;
        ByteBuffer out = big ? ByteBuffer.allocateDirect(SPEC_PARAMS + plen) : scratch.take();
        out.order(java.nio.ByteOrder.nativeOrder());
        spec.encode(outputOid, out, SPEC_FIELDS);
        out.put(SPEC_PARAMS, spec.paramsUnsafe());
        long h = handle.acquire();
        try {
            return check(taskletCreate0(h, out, SPEC_PARAMS, plen), "create tasklet",
                    spec.taskletId() + " (" + spec.layout() + ", " + plen + " param bytes, budget "
                            + spec.memoryBudget() + ", step limit " + spec.stepLimit() + ")");
        } finally {
            handle.release();
            if (!big) {
                scratch.give(out);
            }
        }
    }

    /** Starts a run of the instance over the input ranges. */
    public void execute(long instance, List<InputRange> inputs) throws IOException {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("a tasklet run needs at least one input range");
        }
        if (inputs.size() * 24 > SCRATCH_SIZE) {
            throw new IllegalArgumentException("too many input ranges: " + inputs.size());
        }
        ByteBuffer out = scratch.take();
        for (int i = 0; i < inputs.size(); i++) {
            InputRange r = inputs.get(i);
            // "to the end" is all ones on the wire; from a non-zero offset the drive wants
            // offset + length not to wrap, so the largest such length is sent instead
            long len = r.length() == InputRange.TO_END ? InputRange.TO_END - r.offset()
                    : r.length();
            out.putLong(i * 24, r.oid()).putLong(i * 24 + 8, r.offset()).putLong(i * 24 + 16,
                    len);
        }
        long h = handle.acquire();
        try {
            check(taskletExecute0(h, instance, out, 0, inputs.size()), "execute tasklet",
                    instance + " over " + inputs.size() + " input range(s)");
        } finally {
            handle.release();
            scratch.give(out);
        }
    }

    /** One progress poll. */
    public TaskletProgress poll(long instance) throws IOException {
        ByteBuffer out = scratch.take();
        long h = handle.acquire();
        try {
            check(taskletPoll0(h, instance, out), "poll tasklet", instance);
            return progress(out, 0);
        } finally {
            handle.release();
            scratch.give(out);
        }
    }

    /** Reads output bytes of the instance at {@code offset} into {@code dst} (advancing it).
     *  Returns bytes read; 0 at the end of the output. */
    public int readOutput(long instance, long offset, ByteBuffer dst) throws IOException {
        checkOffset(offset);
        if (!dst.isDirect()) {
            ByteBuffer st = staging.take();
            try {
                st.limit(Math.min(st.capacity(), dst.remaining()));
                int n = readOutput(instance, offset, st);
                st.flip();
                dst.put(st);
                return n;
            } finally {
                staging.give(st);
            }
        }
        long h = handle.acquire();
        try {
            long n = check(taskletRead0(h, instance, offset, dst, dst.position(), dst.remaining(),
                    null), "read output of tasklet", instance + " at " + offset);
            dst.position(dst.position() + (int) n);
            bytesFromDrive.addAndGet(n);
            return (int) n;
        } finally {
            handle.release();
        }
    }

    /** The whole output of a finished instance. */
    public byte[] readAllOutput(long instance) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        ByteBuffer st = staging.take();
        try {
            long off = 0;
            for (;;) {
                st.clear();
                int n = readOutput(instance, off, st);
                if (n <= 0) {
                    return all.toByteArray();
                }
                st.flip();
                byte[] chunk = new byte[n];
                st.get(chunk);
                all.write(chunk, 0, n);
                off += n;
            }
        } finally {
            staging.give(st);
        }
    }

    /** Releases the instance; its output object stays until removed. */
    public void destroy(long instance) throws IOException {
        long h = handle.acquire();
        try {
            check(taskletDestroy0(h, instance), "destroy tasklet", instance);
        } finally {
            handle.release();
        }
    }

    /**
     * Waits until the instance is done, polling adaptively: the interval follows the rate of
     * pages the drive reports done (see {@link AdaptivePoller}), within the open options'
     * {@link PollPolicy} bounds. Never a fixed sleep.
     *
     * @param listener gets every progress poll (may be null)
     * @return the final progress, state DONE
     * @throws TaskletFailedException when the drive stopped the tasklet (budget, steps, ...)
     * @throws DeviceTimeoutException when {@code timeout} passed first
     */
    public TaskletProgress await(long instance, Duration timeout,
                                 Consumer<TaskletProgress> listener) throws IOException {
        AdaptivePoller poller = new AdaptivePoller(options.pollPolicy());
        long deadline = System.nanoTime() + timeout.toNanos();
        for (;;) {
            TaskletProgress p = poll(instance);
            if (listener != null) {
                listener.accept(p);
            }
            if (p.state() == TaskletState.DONE) {
                return p;
            }
            if (p.state() == TaskletState.FAILED) {
                throw Errors.taskletFailed(p.error(), uri + ": tasklet " + instance + " after "
                        + p.pagesDone() + " of " + p.pagesTotal() + " pages");
            }
            if (p.state() == TaskletState.CREATED) {
                throw Errors.translate(-Errno.EINVAL, 0, uri + ": tasklet " + instance
                        + " was never executed; call execute() before await()");
            }
            long now = System.nanoTime();
            long wait = poller.nextDelay(p.pagesDone(), p.pagesTotal(), now);
            if (now + wait - deadline > 0) {
                if (deadline - now <= 0) {
                    throw Errors.translate(-Errno.ETIMEDOUT, 0, uri + ": tasklet " + instance
                            + " not done after " + timeout + " (" + p.pagesDone() + " of "
                            + p.pagesTotal() + " pages)");
                }
                wait = deadline - now;
            }
            LockSupport.parkNanos(wait);
            if (Thread.interrupted()) {
                throw new InterruptedIOException("interrupted waiting for tasklet " + instance);
            }
        }
    }

    /** An energy accountant over this drive, with the default host power profile. */
    public EnergyAccountant energyAccountant() {
        return new EnergyAccountant(this, HostPowerProfile.fromSystemProperties());
    }

    @Override
    public String toString() {
        return "SmartSsdDevice[" + uri + (isClosed() ? ", closed]" : "]");
    }

    // ---- helpers ------------------------------------------------------------------------

    private long stagedWrite(long oid, long offset, ByteBuffer src, boolean fua)
            throws IOException {
        ByteBuffer st = staging.take();
        try {
            long total = 0;
            while (src.hasRemaining()) {
                st.clear();
                int n = Math.min(st.capacity(), src.remaining());
                ByteBuffer part = src.slice(src.position(), n);
                st.put(part).flip();
                write(oid, offset + total, st, fua);
                src.position(src.position() + n);
                total += n;
            }
            return total;
        } finally {
            staging.give(st);
        }
    }

    private int stagedRead(long oid, long offset, ByteBuffer dst) throws IOException {
        ByteBuffer st = staging.take();
        try {
            int total = 0;
            while (dst.hasRemaining()) {
                st.clear();
                int want = Math.min(st.capacity(), dst.remaining());
                st.limit(want);
                int n = read(oid, offset + total, st);
                st.flip();
                dst.put(st);
                total += n;
                if (n < want) {
                    break; // end of the object
                }
            }
            return total;
        } finally {
            staging.give(st);
        }
    }

    private long check(long rc, String what) throws IOException {
        if (rc < 0) {
            throw fail(rc, uri, what);
        }
        return rc;
    }

    private long check(long rc, String what, Object subject) throws IOException {
        if (rc < 0) {
            throw fail(rc, uri, what + " " + subject);
        }
        return rc;
    }

    /** The exception for a failed native call; must run on the failing thread, right after. */
    private static IOException fail(long rc, String uri, String context) {
        String detail = lastMessage0();
        String msg = uri + ": " + context;
        if (detail != null && !detail.isEmpty()) {
            msg += " [" + detail + "]";
        }
        return Errors.translate(-Errors.errnoOf(rc), Errors.reasonOf(rc), msg);
    }

    static long packed(int errno, int reason) {
        return -(((long) reason << 32) | errno);
    }

    private static String oid(long oid) {
        return "object " + Long.toUnsignedString(oid);
    }

    private static void checkOffset(long v) {
        if (v < 0) {
            throw new IllegalArgumentException("offset/length " + v + " is negative");
        }
    }

    private static byte[] path(String path) {
        Objects.requireNonNull(path, "path");
        if (path.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("path contains a NUL character: " + path);
        }
        byte[] b = utf8z(path);
        if (b.length > 4096) {
            throw new IllegalArgumentException("path longer than 4095 bytes: " + path);
        }
        return b;
    }

    /** UTF-8 bytes with a terminating NUL, as C wants them. */
    private static byte[] utf8z(String s) {
        byte[] u = s.getBytes(StandardCharsets.UTF_8);
        byte[] z = new byte[u.length + 1];
        System.arraycopy(u, 0, z, 0, u.length);
        return z;
    }

    private static String cString(ByteBuffer b, int at, int max) {
        int n = 0;
        while (n < max && b.get(at + n) != 0) {
            n++;
        }
        byte[] s = new byte[n];
        b.get(at, s);
        return new String(s, StandardCharsets.UTF_8);
    }

    private static long[] longs(ByteBuffer b, int n) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = b.getLong(i * 8);
        }
        return v;
    }

    private static ObjectStat stat(ByteBuffer b) {
        long[] v = longs(b, 10);
        return new ObjectStat(v[0], v[1], ObjectType.of((int) v[2]), v[3], v[4], v[5], v[6], v[7],
                v[8], v[9], cString(b, STAT_NAME, NAME_BYTES));
    }

    static TaskletProgress progress(ByteBuffer b, int at) {
        return new TaskletProgress(TaskletState.of((int) b.getLong(at)), (int) b.getLong(at + 8),
                b.getLong(at + 16), b.getLong(at + 24), b.getLong(at + 32), b.getLong(at + 40),
                b.getLong(at + 48), b.getLong(at + 56), b.getLong(at + 64), b.getLong(at + 72));
    }

    // ---- native methods: each returns a result >= 0 or -((reason << 32) | errno) --------

    private static native long open0(byte[] uri, int timeoutMs, int busyRetryMs);

    private static native long close0(long h);

    private static native String transport0(long h);

    private static native String lastMessage0();

    private static native long info0(long h, ByteBuffer out);

    private static native long fsstat0(long h, ByteBuffer out);

    private static native long flush0(long h);

    private static native long counters0(long h, ByteBuffer out);

    private static native long model0(long h, ByteBuffer out);

    /** The wire layout of fixed reply {@code which} (0 drive info, 1 fsstat, 2 counters) as
     *  the C field lists define it: lines "name kind offset bytes", then "size bytes". */
    static native String replyLayout0(int which);

    private static native long smart0(long h, ByteBuffer out, int max);

    private static native long lookup0(long h, byte[] path, ByteBuffer out);

    private static native long stat0(long h, long oid, ByteBuffer out);

    private static native long create0(long h, byte[] path, int type, int flags);

    private static native long write0(long h, long oid, long offset, ByteBuffer buf, int pos,
                                      int len, int flags);

    private static native long read0(long h, long oid, long offset, ByteBuffer buf, int pos,
                                     int len);

    private static native long truncate0(long h, long oid, long size);

    private static native long remove0(long h, byte[] path, int flags);

    private static native long rename0(long h, byte[] src, byte[] dst, int flags);

    private static native long list0(long h, byte[] path, long cursor, ByteBuffer out, int max);

    private static native long setTimes0(long h, long oid, long mtimeNs, long atimeNs);

    private static native long extents0(long h, long oid, long offset, long length,
                                        ByteBuffer out, int max);

    private static native long createOutput0(long h, byte[] path, int flags);

    private static native long taskletCreate0(long h, ByteBuffer spec, int paramsPos,
                                              int paramsLen);

    private static native long taskletExecute0(long h, long instance, ByteBuffer inputs, int pos,
                                               int n);

    private static native long taskletPoll0(long h, long instance, ByteBuffer out);

    private static native long taskletRead0(long h, long instance, long offset, ByteBuffer buf,
                                            int pos, int len, ByteBuffer progress);

    private static native long taskletDestroy0(long h, long instance);

    private static native long format0(byte[] image, byte[] profile, long capacityBytes,
                                       int maxObjects, ByteBuffer message);

    private static native String profiles0();
}
