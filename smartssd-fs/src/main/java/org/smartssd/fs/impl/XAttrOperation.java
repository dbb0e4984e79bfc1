package org.smartssd.fs.impl;

import java.io.IOException;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.smartssd.device.Reason;
import org.smartssd.device.SmartSsdException;

/**
 * Hadoop's extended attributes as the drive object's named attributes (PROTOCOL.md 4.6).
 * Names are in Hadoop's {@code user.} namespace only (its prefix case-insensitive, stored
 * lower case, as HDFS does); values up to the drive's 1024 bytes per object. Cost: one
 * LOOKUP, then one attribute command per name (a whole-map read: one LIST_ATTRS, then one
 * GET_ATTR per name).
 *
 * @param <T> what the operation returns
 */
public final class XAttrOperation<T> extends StoreOperation<T> {
    /** Counter names Hadoop's StoreStatisticNames does not have. */
    public static final String OP_XATTR_SET = "op_xattr_set";
    public static final String OP_XATTR_REMOVE = "op_xattr_remove";
    /** Every operation counter of this class, for building the statistics store. */
    public static final String[] COUNTERS = {OP_XATTR_SET, OP_XATTR_REMOVE,
        StoreStatisticNames.OP_XATTR_GET_NAMED, StoreStatisticNames.OP_XATTR_GET_MAP,
        StoreStatisticNames.OP_XATTR_GET_NAMED_MAP, StoreStatisticNames.OP_XATTR_LIST};

    private static final String USER = "user.";

    /** What the operations need from the drive. */
    public interface XAttrCallbacks extends GetFileStatusOperation.StatusCallbacks {
        void setAttr(long oid, String name, byte[] value, boolean create, boolean replace)
                throws IOException;

        byte[] getAttr(long oid, String name) throws IOException;

        List<String> listAttrs(long oid) throws IOException;

        void removeAttr(long oid, String name) throws IOException;
    }

    /** The work on the object once its path is resolved. */
    @FunctionalInterface
    private interface Work<T> {
        T run(XAttrCallbacks cb, long oid) throws IOException;
    }

    private final XAttrCallbacks callbacks;
    private final Work<T> work;

    private XAttrOperation(StoreContext ctx, String op, Path path, XAttrCallbacks callbacks,
                           Work<T> work) {
        super(ctx, op, path);
        this.callbacks = callbacks;
        this.work = work;
    }

    @Override
    protected T executeOnce() throws IOException {
        long oid = callbacks.lookup(context().pathToKey(path())).oid();
        try {
            return work.run(callbacks, oid);
        } catch (SmartSsdException e) {
            if (e.reason() != Reason.NO_SUCH_ATTR) {
                throw e;
            }
            throw new IOException(path() + ": at least one of the attributes provided was not "
                    + "found (" + e.getMessage() + ")", e);
        }
    }

    public static XAttrOperation<Void> set(StoreContext ctx, Path path, String name,
                                           byte[] value, EnumSet<XAttrSetFlag> flags,
                                           XAttrCallbacks cb) {
        String n = normalize(name);
        if (flags == null || flags.isEmpty()) {
            throw new HadoopIllegalArgumentException("setXAttr " + name
                    + ": give XAttrSetFlag CREATE, REPLACE or both");
        }
        boolean create = !flags.contains(XAttrSetFlag.REPLACE);
        boolean replace = !flags.contains(XAttrSetFlag.CREATE);
        byte[] v = value == null ? new byte[0] : value;
        return new XAttrOperation<>(ctx, OP_XATTR_SET, path, cb, (c, oid) -> {
            c.setAttr(oid, n, v, create, replace);
            return null;
        });
    }

    public static XAttrOperation<byte[]> get(StoreContext ctx, Path path, String name,
                                             XAttrCallbacks cb) {
        String n = normalize(name);
        return new XAttrOperation<>(ctx, StoreStatisticNames.OP_XATTR_GET_NAMED, path, cb,
                (c, oid) -> c.getAttr(oid, n));
    }

    /** Every attribute ({@code names} null) or the named ones, in the drive's order. */
    public static XAttrOperation<Map<String, byte[]>> getMap(StoreContext ctx, Path path,
                                                             List<String> names,
                                                             XAttrCallbacks cb) {
        List<String> wanted = names == null ? null : names.stream().map(XAttrOperation::normalize)
                .toList();
        return new XAttrOperation<>(ctx, names == null ? StoreStatisticNames.OP_XATTR_GET_MAP
                : StoreStatisticNames.OP_XATTR_GET_NAMED_MAP, path, cb, (c, oid) -> {
                    Map<String, byte[]> out = new LinkedHashMap<>();
                    for (String n : wanted == null ? c.listAttrs(oid) : wanted) {
                        out.put(n, c.getAttr(oid, n));
                    }
                    return out;
                });
    }

    public static XAttrOperation<List<String>> list(StoreContext ctx, Path path,
                                                    XAttrCallbacks cb) {
        return new XAttrOperation<>(ctx, StoreStatisticNames.OP_XATTR_LIST, path, cb,
                (c, oid) -> c.listAttrs(oid));
    }

    public static XAttrOperation<Void> remove(StoreContext ctx, Path path, String name,
                                              XAttrCallbacks cb) {
        String n = normalize(name);
        return new XAttrOperation<>(ctx, OP_XATTR_REMOVE, path, cb, (c, oid) -> {
            c.removeAttr(oid, n);
            return null;
        });
    }

    /** "user.x" with its prefix lower case; any other namespace is refused by name. */
    static String normalize(String name) {
        if (name == null || name.length() <= USER.length()
                || !name.substring(0, USER.length()).toLowerCase(Locale.ROOT).equals(USER)) {
            throw new HadoopIllegalArgumentException("extended attribute name " + name
                    + ": smartssd:// keeps only the user. namespace (e.g. user.layout)");
        }
        return USER + name.substring(USER.length());
    }
}
