package org.smartssd.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the parts of {@link SmartSsdDevice} (drive, namespace, tasklets, programs, cache,
 * chunks, block target) share: the native handle, the direct buffer pools, the counts behind
 * {@link ClientStatistics}, and the one way to make a call into {@link SmartSsdNative}
 * ({@link #withHandle}, {@link #withScratch}) and turn its failure into an exception
 * ({@link #check}).
 */
final class DeviceSession {
    /** Scratch buffers: results the native layer fills (stat, listing, poll, SMART). */
    static final int SCRATCH_SIZE = 64 * 1024;
    /** Staging buffers for heap data crossing to and from the drive. */
    static final int STAGING_SIZE = 1024 * 1024;

    /** A native call on the handle. */
    @FunctionalInterface
    interface HandleCall<T> {
        T call(long h) throws IOException;
    }

    /** A native call on the handle that fills a scratch buffer. */
    @FunctionalInterface
    interface ScratchCall<T> {
        T call(long h, ByteBuffer out) throws IOException;
    }

    final String uri;
    final SmartSsdDevice.Options options;
    final NativeHandle handle;
    final String transport;
    final BufferPool scratch = new BufferPool(SCRATCH_SIZE, 8);
    final BufferPool staging = new BufferPool(STAGING_SIZE, 4);
    final AtomicLong bytesToDrive = new AtomicLong();
    final AtomicLong bytesFromDrive = new AtomicLong();
    final AtomicLong calls = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final AtomicLong taskletRuns = new AtomicLong();

    private DeviceSession(String uri, SmartSsdDevice.Options options, NativeHandle handle,
                          String transport) {
        this.uri = uri;
        this.options = options;
        this.handle = handle;
        this.transport = transport;
    }

    /** Opens the drive at {@code uri}: its handle, freed once when the last call ends after
     *  {@link NativeHandle#close}. */
    static DeviceSession open(String uri, SmartSsdDevice.Options options) throws IOException {
        Objects.requireNonNull(uri, "uri");
        if (!(uri.startsWith("emu:") || uri.startsWith("unix:") || uri.startsWith("sg:"))) {
            throw new IllegalArgumentException("device URI must start with emu:, unix: or sg:, "
                    + "got '" + uri + "'");
        }
        long rc = SmartSsdNative.open0(utf8z(uri), options.timeoutMs(), options.busyRetryMs());
        if (rc <= 0) {
            throw fail(rc == 0 ? packed(Errno.EFAULT, 0) : rc, uri, "open");
        }
        return new DeviceSession(uri, options, new NativeHandle(rc, SmartSsdNative::close0, uri),
                SmartSsdNative.transport0(rc));
    }

    /** Runs {@code call} holding the handle, so {@link NativeHandle#close} waits for it. */
    <T> T withHandle(HandleCall<T> call) throws IOException {
        long h = handle.acquire();
        calls.incrementAndGet();
        try {
            return call.call(h);
        } finally {
            handle.release();
        }
    }

    /** Sessions the handle has opened (1 plus its reconnects); no call into the drive, so
     *  not counted among {@link #calls}. */
    long sessionsOpened() throws IOException {
        long h = handle.acquire();
        try {
            return SmartSsdNative.sessionsOpened0(h);
        } finally {
            handle.release();
        }
    }

    /** As {@link #withHandle}, with a scratch buffer for the call's results. */
    <T> T withScratch(ScratchCall<T> call) throws IOException {
        ByteBuffer out = scratch.take();
        try {
            return withHandle(h -> call.call(h, out));
        } finally {
            scratch.give(out);
        }
    }

    long check(long rc, String what) throws IOException {
        if (rc < 0) {
            errors.incrementAndGet();
            throw fail(rc, uri, what);
        }
        return rc;
    }

    long check(long rc, String what, Object subject) throws IOException {
        if (rc < 0) {
            errors.incrementAndGet();
            throw fail(rc, uri, what + " " + subject);
        }
        return rc;
    }

    /** The exception for a failed native call; must run on the failing thread, right after. */
    static IOException fail(long rc, String uri, String context) {
        String detail = SmartSsdNative.lastMessage0();
        String msg = uri + ": " + context;
        if (detail != null && !detail.isEmpty()) {
            msg += " [" + detail + "]";
        }
        return Errors.translate(-Errors.errnoOf(rc), Errors.reasonOf(rc), msg);
    }

    static long packed(int errno, int reason) {
        return -(((long) reason << 32) | errno);
    }

    static String oid(long oid) {
        return "object " + Long.toUnsignedString(oid);
    }

    static void checkOffset(long v) {
        if (v < 0) {
            throw new IllegalArgumentException("offset/length " + v + " is negative");
        }
    }

    static byte[] path(String path) {
        Objects.requireNonNull(path, "path");
        if (path.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("path contains a NUL character: " + path);
        }
        byte[] b = strictUtf8z(path);
        if (b.length > 4096) {
            throw new IllegalArgumentException("path longer than 4095 bytes: " + path);
        }
        return b;
    }

    /**
     * UTF-8 with a terminating NUL, refusing what is not Unicode (an unpaired surrogate):
     * String.getBytes would turn it into '?', so two different names would reach the
     * drive as one.
     */
    private static byte[] strictUtf8z(String s) {
        java.nio.charset.CharsetEncoder enc = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
        try {
            ByteBuffer u = enc.encode(java.nio.CharBuffer.wrap(s));
            byte[] z = new byte[u.remaining() + 1];
            u.get(z, 0, u.remaining());
            return z;
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException("path is not valid Unicode (an unpaired "
                    + "surrogate): " + s.replaceAll("[\\uD800-\\uDFFF]", "\uFFFD"), e);
        }
    }

    /** UTF-8 bytes with a terminating NUL, as C wants them. */
    static byte[] utf8z(String s) {
        byte[] u = s.getBytes(StandardCharsets.UTF_8);
        byte[] z = new byte[u.length + 1];
        System.arraycopy(u, 0, z, 0, u.length);
        return z;
    }

    static String cString(ByteBuffer b, int at, int max) {
        int n = 0;
        while (n < max && b.get(at + n) != 0) {
            n++;
        }
        byte[] s = new byte[n];
        b.get(at, s);
        return new String(s, StandardCharsets.UTF_8);
    }

    static long[] longs(ByteBuffer b, int n) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = b.getLong(i * 8);
        }
        return v;
    }

    static int flags(SmartSsdDevice.CreateOption... options) {
        int flags = 0;
        for (SmartSsdDevice.CreateOption o : options) {
            flags |= o.flag;
        }
        return flags;
    }
}
