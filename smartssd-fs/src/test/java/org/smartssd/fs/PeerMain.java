package org.smartssd.fs;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The second JVM of {@link TwoJvmTest}: opens smartssd://peer on the drive served at
 * args[0], prints "FILE name length crc32" for every file under /shared, then writes
 * /shared/from-peer with the text args[1].
 */
public final class PeerMain {
    private PeerMain() {
    }

    public static void main(String[] args) throws IOException {
        Configuration conf = new Configuration();
        conf.set("smartssd.device.peer.uri", args[0]);
        try (FileSystem fs = FileSystem.newInstance(URI.create("smartssd://peer/"), conf)) {
            for (FileStatus st : fs.listStatus(new Path("/shared"))) {
                CRC32 crc = new CRC32();
                try (FSDataInputStream in = fs.open(st.getPath())) {
                    crc.update(in.readAllBytes());
                }
                System.out.println("FILE " + st.getPath().getName() + " " + st.getLen() + " "
                        + crc.getValue());
            }
            try (FSDataOutputStream out = fs.create(new Path("/shared/from-peer"), false)) {
                out.write(args[1].getBytes(StandardCharsets.UTF_8));
            }
        }
        System.out.println("DONE");
    }
}
