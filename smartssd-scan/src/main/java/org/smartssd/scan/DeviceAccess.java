package org.smartssd.scan;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.smartssd.device.ObjectStat;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.SmartSsdFileSystem;

/**
 * The drive and object behind a {@code smartssd://} file, through the file system's shared
 * device (one per drive per JVM: an emulated image opens once per process). Cost: one
 * lookup command.
 */
public record DeviceAccess(SmartSsdFileSystem fs, SmartSsdDevice device, String key, ObjectStat stat) {
    public static DeviceAccess of(Path file, Configuration conf) throws IOException {
        SmartSsdFileSystem s = fileSystem(file, conf);
        String key = s.storeContext().pathToKey(s.makeQualified(file));
        SmartSsdDevice dev = s.device();
        ObjectStat st = dev.lookup(key);
        if (st.isDirectory()) {
            throw new IOException(file + " is a directory, not an input file");
        }
        return new DeviceAccess(s, dev, key, st);
    }

    /** The file system of a {@code smartssd://} file (no command). */
    public static SmartSsdFileSystem fileSystem(Path file, Configuration conf) throws IOException {
        FileSystem fs = file.getFileSystem(conf);
        if (!(fs instanceof SmartSsdFileSystem s)) {
            throw new IOException("a scan reads files on a Smart SSD (smartssd://NAME/...); "
                    + file + " is on " + fs.getUri());
        }
        return s;
    }
}
