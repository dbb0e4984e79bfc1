package org.smartssd.device;

import static org.smartssd.device.DeviceSession.cString;
import static org.smartssd.device.DeviceSession.checkOffset;
import static org.smartssd.device.DeviceSession.oid;
import static org.smartssd.device.DeviceSession.path;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The namespace part of {@link SmartSsdDevice}: paths, objects and their data. */
final class NamespaceOps {
    // Results in the scratch buffer, mirrored in native/jni/jni_internal.h
    static final int NAME_BYTES = 256;
    static final int DIRENT_SIZE = 16 + NAME_BYTES;
    static final int LIST_MAX = 64;
    static final int EXTENT_MAX = 256;

    private final DeviceSession s;

    NamespaceOps(DeviceSession s) {
        this.s = s;
    }

    ObjectStat lookup(String path) throws IOException {
        byte[] p = path(path);
        return s.withScratch((h, out) -> {
            s.check(SmartSsdNative.lookup0(h, p, out), "lookup", path);
            return Replies.STAT.decode(out);
        });
    }

    Optional<ObjectStat> find(String path) throws IOException {
        try {
            return Optional.of(lookup(path));
        } catch (NoSuchObjectException e) {
            return Optional.empty();
        }
    }

    ObjectStat stat(long oid) throws IOException {
        return s.withScratch((h, out) -> {
            s.check(SmartSsdNative.stat0(h, oid, out), "stat", oid(oid));
            return Replies.STAT.decode(out);
        });
    }

    long create(String path, ObjectType type, SmartSsdDevice.CreateOption... options)
            throws IOException {
        byte[] p = path(path);
        int flags = DeviceSession.flags(options);
        return s.withHandle(h -> s.check(SmartSsdNative.create0(h, p, type.code(), flags),
                "create " + type.name().toLowerCase(), path));
    }

    long write(long oid, long offset, ByteBuffer src, boolean fua, int depth)
            throws IOException {
        checkOffset(offset);
        checkDepth(depth);
        int len = src.remaining();
        if (!src.isDirect()) {
            return stagedWrite(oid, offset, src, fua);
        }
        return s.withHandle(h -> {
            long n = s.check(SmartSsdNative.write0(h, oid, offset, src, src.position(), len,
                    fua ? 1 : 0, depth), "write", oid(oid) + " at " + offset);
            src.position(src.position() + (int) n);
            s.bytesToDrive.addAndGet(n);
            return n;
        });
    }

    /** The most commands a submission queue keeps in the drive (SS_DEV_QUEUE_DEPTH_MAX). */
    static final int QUEUE_DEPTH_MAX = 32;

    private static void checkDepth(int depth) {
        if (depth < 1 || depth > QUEUE_DEPTH_MAX) {
            throw new IllegalArgumentException("queue depth " + depth + " is outside 1.."
                    + QUEUE_DEPTH_MAX);
        }
    }

    int read(long oid, long offset, ByteBuffer dst) throws IOException {
        checkOffset(offset);
        if (!dst.isDirect()) {
            return stagedRead(oid, offset, dst);
        }
        return s.withHandle(h -> {
            long n = s.check(SmartSsdNative.read0(h, oid, offset, dst, dst.position(),
                    dst.remaining()), "read", oid(oid) + " at " + offset);
            dst.position(dst.position() + (int) n);
            s.bytesFromDrive.addAndGet(n);
            return (int) n;
        });
    }

    int[] readRanges(long oid, long[] offsets, int[] lens, ByteBuffer dst, int depth)
            throws IOException {
        if (offsets.length != lens.length) {
            throw new IllegalArgumentException(offsets.length + " offsets for " + lens.length
                    + " lengths");
        }
        long total = 0;
        for (int i = 0; i < lens.length; i++) {
            checkOffset(offsets[i]);
            if (lens[i] < 0) {
                throw new IllegalArgumentException("range " + i + " has length " + lens[i]);
            }
            total += lens[i];
        }
        if (!dst.isDirect() || total > dst.remaining()) {
            throw new IllegalArgumentException("the ranges need a direct buffer with " + total
                    + " bytes remaining");
        }
        checkDepth(depth);
        int[] counts = new int[lens.length];
        int start = dst.position();
        int len = (int) total;
        long n = s.withHandle(h -> s.check(SmartSsdNative.readRanges0(h, oid, offsets, lens,
                dst, start, len, depth, counts), "read ranges", oid(oid)));
        dst.position(start + len);
        s.bytesFromDrive.addAndGet(n);
        return counts;
    }

    void truncate(long oid, long size) throws IOException {
        checkOffset(size);
        s.withHandle(h -> s.check(SmartSsdNative.truncate0(h, oid, size), "truncate",
                oid(oid) + " to " + size));
    }

    void remove(String path, boolean recursive) throws IOException {
        byte[] p = path(path);
        s.withHandle(h -> s.check(SmartSsdNative.remove0(h, p, recursive ? 1 : 0),
                recursive ? "remove -r" : "remove", path));
    }

    void rename(String src, String dst, boolean noReplace) throws IOException {
        byte[] sp = path(src);
        byte[] dp = path(dst);
        s.withHandle(h -> s.check(SmartSsdNative.rename0(h, sp, dp, noReplace ? 1 : 0), "rename",
                src + " to " + dst));
    }

    List<DirEntry> list(String path) throws IOException {
        byte[] p = path(path);
        return s.withScratch((h, out) -> {
            List<DirEntry> all = new ArrayList<>();
            long cursor = 0;
            do {
                int n = (int) s.check(SmartSsdNative.list0(h, p, cursor, out, LIST_MAX), "list",
                        path);
                for (int i = 0; i < n; i++) {
                    int base = 8 + i * DIRENT_SIZE;
                    all.add(new DirEntry(out.getLong(base),
                            ObjectType.of((int) out.getLong(base + 8)),
                            cString(out, base + 16, NAME_BYTES)));
                }
                cursor = out.getLong(0);
            } while (cursor != 0);
            return all;
        });
    }

    void setTimes(long oid, long mtimeNs, long atimeNs) throws IOException {
        s.withHandle(h -> s.check(SmartSsdNative.setTimes0(h, oid, mtimeNs < 0 ? -1 : mtimeNs,
                atimeNs < 0 ? -1 : atimeNs), "set times of", oid(oid)));
    }

    List<Extent> extents(long oid, long offset, long length) throws IOException {
        checkOffset(offset);
        checkOffset(length);
        return s.withScratch((h, out) -> {
            int n = (int) s.check(SmartSsdNative.extents0(h, oid, offset, length, out,
                    EXTENT_MAX), "extents of", oid(oid));
            List<Extent> ext = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                ext.add(new Extent(out.getLong(i * 24), out.getLong(i * 24 + 8),
                        out.getLong(i * 24 + 16)));
            }
            return ext;
        });
    }

    private long stagedWrite(long oid, long offset, ByteBuffer src, boolean fua)
            throws IOException {
        ByteBuffer st = s.staging.take();
        try {
            long total = 0;
            while (src.hasRemaining()) {
                st.clear();
                int n = Math.min(st.capacity(), src.remaining());
                ByteBuffer part = src.slice(src.position(), n);
                st.put(part).flip();
                write(oid, offset + total, st, fua, 1);
                src.position(src.position() + n);
                total += n;
            }
            return total;
        } finally {
            s.staging.give(st);
        }
    }

    private int stagedRead(long oid, long offset, ByteBuffer dst) throws IOException {
        ByteBuffer st = s.staging.take();
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
            s.staging.give(st);
        }
    }

}
