package org.smartssd.spark;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A writer in another process, for {@link SmartSsdTwoProcessLockTest}: {@code
 * OtherProcessLock DRIVE_NAME DEVD_URI PATH} takes the table lock of PATH as a write of
 * another Spark application takes it, prints {@code LOCKED pid}, holds it until a line on
 * its standard input, then releases it and prints {@code RELEASED}.
 */
public final class OtherProcessLock {
    private OtherProcessLock() {
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.set("smartssd.device." + args[0] + ".uri", args[1]);
        FileSystem fs = FileSystem.get(URI.create("smartssd://" + args[0] + "/"), conf);
        try (TableLock lock = TableLock.acquire(fs, new Path(args[2]), 60_000)) {
            System.out.println("LOCKED " + ManagementFactory.getRuntimeMXBean().getPid());
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                    .readLine();
        }
        System.out.println("RELEASED");
        System.out.flush();
        fs.close();
    }
}
