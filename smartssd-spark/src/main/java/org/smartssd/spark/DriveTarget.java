package org.smartssd.spark;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.smartssd.device.EnergyAccountant;
import org.smartssd.device.HostPowerProfile;
import org.smartssd.device.ObjectStat;
import org.smartssd.device.Rapl;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.SmartSsdFileSystem;
import org.smartssd.fs.sscache.CachedFile;
import org.smartssd.fs.sscache.SsCacheFileSystem;

/**
 * A task's view of its partition's file: the FileSystem (shared, one device per drive per JVM)
 * and the object behind the path, or for an {@code sscache://} file what a scan through the
 * drive's cache needs ({@code cached}; {@code stat} is then null). Cost: one lookup command.
 */
record DriveTarget(FileSystem fs, Path path, SmartSsdDevice device, ObjectStat stat,
                   CachedFile cached) {
    static DriveTarget of(ScanPlan plan, SmartSsdPartition part) throws IOException {
        Configuration conf = plan.conf().hadoop();
        Path p = new Path(part.path());
        FileSystem fs = p.getFileSystem(conf);
        if (fs instanceof SsCacheFileSystem c) {
            CachedFile file = c.cachedFile(p);
            checkLength(part, file.version().length());
            return new DriveTarget(c, p, file.device(), null, file);
        }
        if (!(fs instanceof SmartSsdFileSystem s)) {
            throw new IOException(part.path() + " is not on a Smart SSD");
        }
        SmartSsdDevice dev = s.device();
        ObjectStat st = dev.lookup(s.storeContext().pathToKey(s.makeQualified(p)));
        checkLength(part, st.size());
        return new DriveTarget(s, p, dev, st, null);
    }

    private static void checkLength(SmartSsdPartition part, long now) throws IOException {
        if (now != part.fileLength()) {
            throw new IOException(part.path() + " changed since the query was planned: "
                    + now + " bytes now, " + part.fileLength() + " then");
        }
    }

    /** Energy of this thread's work against the drive (tasks share the executor JVM). */
    EnergyAccountant accountant() {
        return new EnergyAccountant(device, HostPowerProfile.fromSystemProperties(),
                Rapl.system(), EnergyAccountant.Scope.THREAD);
    }
}
