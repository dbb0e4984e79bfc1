package org.smartssd.device;

import java.nio.ByteBuffer;

/**
 * The JNI binding of libsmartssd ({@code native/jni/}): every native method of the client,
 * static, as zstd-jni's {@code Zstd} holds its own, and nothing else. Only the parts of
 * {@link SmartSsdDevice} call it; a call on a device handle {@code h} runs inside
 * {@link DeviceSession#withHandle}, which keeps the handle from being freed meanwhile. One
 * class, so the library exports one prefix ({@code Java_org_smartssd_device_SmartSsdNative_})
 * and {@link NativeLoader} loads it once, when this class is first used.
 *
 * <p>Each {@code long} one returns a result {@code >= 0} or {@code -((reason << 32) | errno)}
 * ({@link Errors#errnoOf}, {@link Errors#reasonOf}); results too large for one come back in
 * the caller's direct {@code out} buffer (native/jni/jni_internal.h has the layouts).
 */
final class SmartSsdNative {
    static {
        NativeLoader.load();
    }

    private SmartSsdNative() {
    }

    // ---- the device: open, close, errors (jni_device.c) ---------------------------------

    static native long open0(byte[] uri, int timeoutMs, int busyRetryMs);

    static native long close0(long h);

    static native String transport0(long h);

    /** Sessions the handle has opened: 1, plus one for each reconnect. */
    static native long sessionsOpened0(long h);

    static native String lastMessage0();

    /** The wire layout of fixed reply {@code which} (0 drive info, 1 fsstat, 2 counters, ...:
     *  the list in jni_device.c) as the C field lists define it: lines "name kind offset
     *  bytes", then "size bytes"; null for an unknown reply. */
    static native String replyLayout0(int which);

    // ---- formatting an emulated image (jni_format.c) ------------------------------------

    static native long format0(byte[] image, byte[] profile, long capacityBytes,
                               int maxObjects, int cacheSharePercent, byte[] bufferPolicy,
                               long bufferBytes, int bufferThreshold, boolean force,
                               int driveInterface, ByteBuffer message);

    static native String profiles0();

    // ---- DriveOps (jni_drive_ops.c) ------------------------------------------------------

    static native long info0(long h, ByteBuffer out);

    static native long fsstat0(long h, ByteBuffer out);

    static native long flush0(long h);

    static native long counters0(long h, ByteBuffer out);

    static native long check0(long h, ByteBuffer out);

    static native long ispQueue0(long h, ByteBuffer out);

    static native long model0(long h, ByteBuffer out);

    static native long energyJoin0(long h, long instance);

    static native long energyLeave0(long h, long ticket, boolean abandon);

    static native long energyShare0(long h, long ticket, ByteBuffer out);

    static native long smart0(long h, ByteBuffer out, int max);

    // ---- NamespaceOps (jni_namespace_ops.c) ----------------------------------------------

    static native long lookup0(long h, byte[] path, ByteBuffer out);

    static native long stat0(long h, long oid, ByteBuffer out);

    static native long create0(long h, byte[] path, int type, int flags);

    static native long write0(long h, long oid, long offset, ByteBuffer buf, int pos, int len,
                              int flags, int depth);

    static native long read0(long h, long oid, long offset, ByteBuffer buf, int pos, int len);

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

    static native long extents0(long h, long oid, long offset, long length, ByteBuffer out,
                                int max);

    // ---- TaskletOps (jni_tasklet_ops.c) --------------------------------------------------

    static native long createOutput0(long h, byte[] path, int flags);

    static native long taskletCreate0(long h, ByteBuffer spec, int paramsPos, int paramsLen);

    static native long taskletExecute0(long h, long instance, ByteBuffer inputs, int pos, int n);

    static native long taskletPoll0(long h, long instance, ByteBuffer out);

    static native long taskletRead0(long h, long instance, long offset, ByteBuffer buf, int pos,
                                    int len, ByteBuffer progress);

    static native long taskletDestroy0(long h, long instance);

    // ---- ProgramOps (jni_program_ops.c) --------------------------------------------------

    static native long programLoad0(long h, byte[] name, ByteBuffer elf, int len, int flags);

    static native long programList0(long h, ByteBuffer out);

    static native long programRemove0(long h, byte[] name);

    // ---- SolidStateCache (jni_cache.c) ---------------------------------------------------

    static native long cacheInfo0(long h, ByteBuffer out);

    static native long cacheWrite0(long h, boolean dirty, long first, long count, ByteBuffer buf,
                                   int pos, int len);

    static native long cacheRead0(long h, long first, long count, ByteBuffer buf, int pos, int len,
                                  ByteBuffer out);

    static native long cacheRange0(long h, int op, long first, long count, ByteBuffer out);

    static native long cacheScan0(long h, long instance, long fileBytes, byte[] digest,
                                  long[] ranges, int n, ByteBuffer out);

    // ---- ChunkedDrive (jni_chunk_ops.c) --------------------------------------------------

    static native long geometry0(long h, ByteBuffer out);

    static native long chunkReport0(long h, boolean zoned, long first, int max, ByteBuffer out);

    static native long vectorIo0(long h, boolean write, int[] ppas, int n, ByteBuffer buf,
                                 int pos);

    static native long chunkReset0(long h, int[] ppas, int n);

    static native long zoneMgmt0(long h, int action, long slba);

    static native long zoneAppend0(long h, long slba, ByteBuffer buf, int pos, int len);

    // ---- BlockTarget (jni_blk_ops.c; b is the target's handle, not the device's) ---------

    static native long blkOpen0(long h, int opPermille, int checkpointLines);

    static native long blkClose0(long b);

    static native long blkIo0(long b, boolean write, long lba, int n, ByteBuffer buf, int pos,
                              boolean fua);

    static native long blkTrim0(long b, long lba, long n);

    static native long blkFlush0(long b);

    static native long blkStats0(long b, ByteBuffer out);
}
