package org.smartssd.fs.impl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;

import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.smartssd.device.DirEntry;
import org.smartssd.device.FsStat;
import org.smartssd.device.NoSuchObjectException;
import org.smartssd.device.NotADirectoryException;
import org.smartssd.device.ObjectStat;
import org.smartssd.device.ObjectType;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.SmartSsdDevice.CreateOption;

/**
 * The operations' callbacks, done on one drive through {@link SmartSsdDevice}'s public API,
 * each counting the drive commands it sends ({@link #COMMAND_PREFIX}{@code name}). Nothing is
 * cached: every answer comes from the drive, so all processes on it see the same tree.
 */
public final class DriveStore implements GetFileStatusOperation.StatusCallbacks,
        MkdirOperation.MkdirCallbacks, CreateOperation.CreateCallbacks,
        DeleteOperation.DeleteCallbacks, RenameOperation.RenameCallbacks,
        ListingOperation.ListingCallbacks, SetTimesOperation.SetTimesCallbacks,
        TruncateOperation.TruncateCallbacks, XAttrOperation.XAttrCallbacks, ObjectIo {
    /** Prefix of the IOStatistics counters of drive commands. */
    public static final String COMMAND_PREFIX = "drive_command_";

    /** Every counter this store keeps, for building the statistics store. */
    public static final String[] COMMANDS = {"lookup", "stat", "create", "write", "read",
        "truncate", "remove", "rename", "list", "set_times", "flush", "fsstat", "set_attr",
        "get_attr", "list_attrs", "remove_attr"};

    private final SmartSsdDevice device;
    private final IOStatisticsStore stats;

    public DriveStore(SmartSsdDevice device, IOStatisticsStore stats) {
        this.device = device;
        this.stats = stats;
    }

    public SmartSsdDevice device() {
        return device;
    }

    private void count(String command) {
        stats.incrementCounter(COMMAND_PREFIX + command);
    }

    /** A parent that is a file means "no such path" for a lookup, as in HDFS. */
    @Override
    public ObjectStat lookup(String key) throws IOException {
        count("lookup");
        try {
            return device.lookup(key);
        } catch (NotADirectoryException e) {
            throw new NoSuchObjectException(e.getMessage(), e.errno(), e.reasonCode());
        }
    }

    @Override
    public Optional<ObjectStat> find(String key) throws IOException {
        try {
            return Optional.of(lookup(key));
        } catch (NoSuchObjectException e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<ObjectStat> stat(long oid) throws IOException {
        count("stat");
        try {
            return Optional.of(device.stat(oid));
        } catch (NoSuchObjectException e) {
            return Optional.empty();
        }
    }

    @Override
    public void mkdirs(String key) throws IOException {
        count("create");
        device.mkdirs(key);
    }

    @Override
    public long createFile(String key, boolean exclusive, boolean parents) throws IOException {
        count("create");
        if (exclusive && parents) {
            return device.create(key, ObjectType.FILE, CreateOption.EXCLUSIVE,
                    CreateOption.PARENTS);
        } else if (exclusive) {
            return device.create(key, ObjectType.FILE, CreateOption.EXCLUSIVE);
        } else if (parents) {
            return device.create(key, ObjectType.FILE, CreateOption.PARENTS);
        }
        return device.create(key, ObjectType.FILE);
    }

    @Override
    public void truncate(long oid, long size) throws IOException {
        count("truncate");
        device.truncate(oid, size);
    }

    @Override
    public void remove(String key, boolean recursive) throws IOException {
        count("remove");
        device.remove(key, recursive);
    }

    @Override
    public boolean hasChildren(String key) throws IOException {
        return !list(key).isEmpty();
    }

    @Override
    public void renameNoReplace(String srcKey, String dstKey) throws IOException {
        count("rename");
        device.rename(srcKey, dstKey, true);
    }

    @Override
    public List<DirEntry> list(String key) throws IOException {
        count("list");
        return device.list(key);
    }

    @Override
    public void setTimes(long oid, long mtimeNs, long atimeNs) throws IOException {
        count("set_times");
        device.setTimes(oid, mtimeNs, atimeNs);
    }

    @Override
    public void setAttr(long oid, String name, byte[] value, boolean create, boolean replace)
            throws IOException {
        count("set_attr");
        device.attributes().set(oid, name, value, create, replace);
    }

    @Override
    public byte[] getAttr(long oid, String name) throws IOException {
        count("get_attr");
        return device.attributes().get(oid, name);
    }

    @Override
    public List<String> listAttrs(long oid) throws IOException {
        count("list_attrs");
        return device.attributes().list(oid);
    }

    @Override
    public void removeAttr(long oid, String name) throws IOException {
        count("remove_attr");
        device.attributes().remove(oid, name);
    }

    @Override
    public int read(long oid, long offset, ByteBuffer dst) throws IOException {
        count("read");
        return device.read(oid, offset, dst);
    }

    @Override
    public int[] readRanges(long oid, long[] offsets, int[] lens, ByteBuffer dst, int depth)
            throws IOException {
        count("read");
        return device.readRanges(oid, offsets, lens, dst, depth);
    }

    @Override
    public long write(long oid, long offset, ByteBuffer src) throws IOException {
        count("write");
        return device.write(oid, offset, src, false);
    }

    @Override
    public long write(long oid, long offset, ByteBuffer src, int depth) throws IOException {
        count("write");
        return device.write(oid, offset, src, false, depth);
    }

    @Override
    public void flush() throws IOException {
        count("flush");
        device.flush();
    }

    @Override
    public long size(long oid) throws IOException {
        count("stat");
        return device.stat(oid).size();
    }

    public FsStat fsStat() throws IOException {
        count("fsstat");
        return device.fsStat();
    }
}
