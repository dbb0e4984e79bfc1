package org.smartssd.fs.sscache;

import java.net.URI;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The JVM that {@link WriteBackTest} kills: writes /crash/fN (N = 0, 1, ...; the content
 * {@link WriteBackTest#fileContent}) in write-back mode on the drive served at args[0],
 * backing root args[1], with no write-back ever due, and prints "ACK N" once fN's close has
 * returned. Never ends by itself.
 */
public final class WriteBackChildMain {
    private WriteBackChildMain() {
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.set("smartssd.device.child.uri", args[0]);
        conf.set("smartssd.cache.child.backing", args[1]);
        conf.set("smartssd.cache.child.mode", "write-back");
        conf.set("smartssd.cache.child.dirty.threshold", "1.0");
        FileSystem fs = FileSystem.newInstance(URI.create("sscache://child/"), conf);
        for (int n = 0; ; n++) {
            try (FSDataOutputStream out = fs.create(new Path("/crash/f" + n))) {
                out.write(WriteBackTest.fileContent(n));
            }
            System.out.println("ACK " + n);
            System.out.flush();
        }
    }
}
