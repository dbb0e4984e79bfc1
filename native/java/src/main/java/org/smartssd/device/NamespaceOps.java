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
    // Named attributes: SS_DEV_ATTR_NAME_MAX and SS_DEV_ATTRS_MAX of smartssd.h
    static final int ATTR_NAME_MAX = 255;
    static final int ATTRS_MAX = 1024;

    /** How a set treats an existing name (SS_DEV_ATTR_CREATE, SS_DEV_ATTR_REPLACE). */
    enum AttrMode {
        CREATE_OR_REPLACE(0), CREATE(1), REPLACE(2);

        final int flags;

        AttrMode(int flags) {
            this.flags = flags;
        }
    }

    private final DeviceSession s;

    NamespaceOps(DeviceSession s) {
        this.s = s;
    }

    ObjectStat lookup(String path) throws IOException {
        byte[] p = path(path);
        return s.withScratch((h, out) -> {
            s.check(SmartSsdDevice.lookup0(h, p, out), "lookup", path);
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
            s.check(SmartSsdDevice.stat0(h, oid, out), "stat", oid(oid));
            return Replies.STAT.decode(out);
        });
    }

    long create(String path, ObjectType type, SmartSsdDevice.CreateOption... options)
            throws IOException {
        byte[] p = path(path);
        int flags = DeviceSession.flags(options);
        return s.withHandle(h -> s.check(SmartSsdDevice.create0(h, p, type.code(), flags),
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
            long n = s.check(SmartSsdDevice.write0(h, oid, offset, src, src.position(), len,
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
            long n = s.check(SmartSsdDevice.read0(h, oid, offset, dst, dst.position(),
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
        long n = s.withHandle(h -> s.check(SmartSsdDevice.readRanges0(h, oid, offsets, lens,
                dst, start, len, depth, counts), "read ranges", oid(oid)));
        dst.position(start + len);
        s.bytesFromDrive.addAndGet(n);
        return counts;
    }

    void truncate(long oid, long size) throws IOException {
        checkOffset(size);
        s.withHandle(h -> s.check(SmartSsdDevice.truncate0(h, oid, size), "truncate",
                oid(oid) + " to " + size));
    }

    void remove(String path, boolean recursive) throws IOException {
        byte[] p = path(path);
        s.withHandle(h -> s.check(SmartSsdDevice.remove0(h, p, recursive ? 1 : 0),
                recursive ? "remove -r" : "remove", path));
    }

    void rename(String src, String dst, boolean noReplace) throws IOException {
        byte[] sp = path(src);
        byte[] dp = path(dst);
        s.withHandle(h -> s.check(SmartSsdDevice.rename0(h, sp, dp, noReplace ? 1 : 0), "rename",
                src + " to " + dst));
    }

    List<DirEntry> list(String path) throws IOException {
        byte[] p = path(path);
        return s.withScratch((h, out) -> {
            List<DirEntry> all = new ArrayList<>();
            long cursor = 0;
            do {
                int n = (int) s.check(SmartSsdDevice.list0(h, p, cursor, out, LIST_MAX), "list",
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
        s.withHandle(h -> s.check(SmartSsdDevice.setTimes0(h, oid, mtimeNs < 0 ? -1 : mtimeNs,
                atimeNs < 0 ? -1 : atimeNs), "set times of", oid(oid)));
    }

    void setAttr(long oid, String name, byte[] value, AttrMode mode) throws IOException {
        byte[] n = attrName(name);
        java.util.Objects.requireNonNull(value, "value");
        if (value.length > ATTRS_MAX) {
            throw new IllegalArgumentException("attribute " + name + ": value of " + value.length
                    + " bytes; an object holds at most " + ATTRS_MAX
                    + " bytes of attribute names and values");
        }
        s.withHandle(h -> s.check(SmartSsdDevice.setAttr0(h, oid, n, value, mode.flags),
                "set attribute " + name + " of", oid(oid)));
    }

    /** The value; a name the object does not have is a {@link SmartSsdException} of reason {@link Reason#NO_SUCH_ATTR}. */
    byte[] getAttr(long oid, String name) throws IOException {
        byte[] n = attrName(name);
        return s.withScratch((h, out) -> {
            int len = (int) s.check(SmartSsdDevice.getAttr0(h, oid, n, out),
                    "get attribute " + name + " of", oid(oid));
            byte[] v = new byte[len];
            out.get(0, v);
            return v;
        });
    }

    /** The names, in the order they were last set. */
    List<String> listAttrs(long oid) throws IOException {
        return s.withScratch((h, out) -> {
            int len = (int) s.check(SmartSsdDevice.listAttrs0(h, oid, out),
                    "list attributes of", oid(oid));
            List<String> names = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < len; i++) {
                if (out.get(i) == 0) {
                    byte[] b = new byte[i - start];
                    out.get(start, b);
                    names.add(new String(b, java.nio.charset.StandardCharsets.UTF_8));
                    start = i + 1;
                }
            }
            return names;
        });
    }

    void removeAttr(long oid, String name) throws IOException {
        byte[] n = attrName(name);
        s.withHandle(h -> s.check(SmartSsdDevice.removeAttr0(h, oid, n),
                "remove attribute " + name + " of", oid(oid)));
    }

    /** The name as the drive takes it: UTF-8, 1..255 bytes, NUL-terminated for JNI. */
    private static byte[] attrName(String name) {
        java.util.Objects.requireNonNull(name, "attribute name");
        byte[] b = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (b.length == 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("attribute name is empty or contains NUL: "
                    + name.replace('\0', '?'));
        }
        if (b.length > ATTR_NAME_MAX) {
            throw new IllegalArgumentException("attribute name of " + b.length
                    + " bytes (at most " + ATTR_NAME_MAX + "): " + name);
        }
        return java.util.Arrays.copyOf(b, b.length + 1);
    }

    List<Extent> extents(long oid, long offset, long length) throws IOException {
        checkOffset(offset);
        checkOffset(length);
        return s.withScratch((h, out) -> {
            int n = (int) s.check(SmartSsdDevice.extents0(h, oid, offset, length, out,
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
