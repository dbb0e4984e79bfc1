package org.smartssd.fs.impl;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsStore;
import org.smartssd.device.ObjectStat;

/**
 * What an operation needs to know about the file system it works for, without the file
 * system itself: the URI and drive, the owner to report, the block size, the statistics,
 * and the mapping between Hadoop paths and the drive's keys (its absolute paths).
 */
public final class StoreContext {
    /** Longest path and component the drive accepts (PROTOCOL.md 4.1). */
    static final int MAX_PATH_BYTES = 4096;
    static final int MAX_NAME_BYTES = 255;

    private final URI fsUri;
    private final String driveName;
    private final String driveUri;
    private final String host;
    private final long blockSize;
    private final String owner;
    private final String group;
    private final Configuration conf;
    private final IOStatisticsStore ioStatistics;
    private final FileSystem.Statistics statistics;

    public StoreContext(URI fsUri, String driveName, String driveUri, String host, long blockSize,
                        String owner, String group, Configuration conf,
                        IOStatisticsStore ioStatistics, FileSystem.Statistics statistics) {
        this.fsUri = Objects.requireNonNull(fsUri, "fsUri");
        this.driveName = driveName;
        this.driveUri = driveUri;
        this.host = host;
        this.blockSize = blockSize;
        this.owner = owner;
        this.group = group;
        this.conf = conf;
        this.ioStatistics = ioStatistics;
        this.statistics = statistics;
    }

    public URI fsUri() {
        return fsUri;
    }

    /** The device name: the URI's authority. */
    public String driveName() {
        return driveName;
    }

    /** The drive's own URI ({@code emu:}, {@code unix:}, {@code sg:}). */
    public String driveUri() {
        return driveUri;
    }

    /** The host holding the drive, as block locations name it. */
    public String host() {
        return host;
    }

    public long blockSize() {
        return blockSize;
    }

    public Configuration conf() {
        return conf;
    }

    public IOStatisticsStore ioStatistics() {
        return ioStatistics;
    }

    public FileSystem.Statistics statistics() {
        return statistics;
    }

    /** Counts one call of a file system operation (a {@code StoreStatisticNames.OP_*} name). */
    public void countOperation(String op) {
        ioStatistics.incrementCounter(op);
    }

    /**
     * The drive key of a qualified path of this file system: its absolute path, "/" for the
     * root. Names the drive cannot hold are refused here, before any command is sent.
     *
     * @throws InvalidPathException for ".", "..", empty or too long names, a NUL, or a
     *                              root-level name starting with byte 7Fh (reserved)
     */
    public String pathToKey(Path path) {
        URI u = path.toUri();
        String p = u.getPath();
        if (p == null || p.isEmpty()) {
            p = "/";
        }
        if (!p.startsWith("/")) {
            throw new InvalidPathException(path.toString(), "the path is not absolute");
        }
        while (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        if (p.indexOf('\0') >= 0) {
            throw new InvalidPathException(path.toString(), "the path contains a NUL character");
        }
        if (p.getBytes(StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
            throw new InvalidPathException(path.toString(),
                    "the path is longer than " + MAX_PATH_BYTES + " bytes");
        }
        if (p.length() > 1) {
            String[] parts = p.substring(1).split("/", -1);
            for (int i = 0; i < parts.length; i++) {
                String c = parts[i];
                if (c.isEmpty() || c.equals(".") || c.equals("..")) {
                    throw new InvalidPathException(path.toString(),
                            "'" + c + "' is not a valid name");
                }
                if (c.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
                    throw new InvalidPathException(path.toString(), "the name '" + c
                            + "' is longer than " + MAX_NAME_BYTES + " bytes");
                }
                if (i == 0 && c.charAt(0) == '\u007f') {
                    throw new InvalidPathException(path.toString(),
                            "root-level names starting with DEL (7Fh) are reserved for the drive");
                }
            }
        }
        return p;
    }

    /** The qualified path of a drive key. */
    public Path keyToPath(String key) {
        return new Path(fsUri.getScheme(), fsUri.getAuthority(), key);
    }

    /** A Hadoop status for what the drive says about {@code path}. */
    public FileStatus toFileStatus(ObjectStat st, Path path) {
        boolean dir = st.isDirectory();
        return new FileStatus(dir ? 0 : st.size(), dir, 1, dir ? 0 : blockSize,
                st.mtimeNs() / 1_000_000L, st.atimeNs() / 1_000_000L,
                dir ? FsPermission.getDirDefault() : FsPermission.getFileDefault(), owner, group,
                path);
    }

    @Override
    public String toString() {
        return fsUri + " on " + driveUri + " at " + host;
    }
}
