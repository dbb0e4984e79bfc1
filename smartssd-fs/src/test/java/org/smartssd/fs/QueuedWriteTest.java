package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.DiskChecker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output streams send a full buffer as {@code fs.smartssd.write.queue.depth} queued WRITEs:
 * at depths 1 and 2 files of sizes around the piece and buffer boundaries read back as
 * written (with hflush and append between), a full drive leaves the file holding whole
 * pieces of what was written and nothing after, and a depth outside 1..32 is refused by name.
 */
class QueuedWriteTest {
    private static final int MIB = 1 << 20;

    @TempDir
    Path dir;

    private static org.apache.hadoop.fs.Path p(String s) {
        return new org.apache.hadoop.fs.Path(s);
    }

    private static byte[] readAll(FileSystem f, String path) throws IOException {
        try (FSDataInputStream in = f.open(p(path))) {
            return in.readAllBytes();
        }
    }

    @Test
    void everyDepthWritesTheBytesGiven() throws IOException {
        int[] sizes = {0, 1, MIB - 1, MIB, 2 * MIB + 1, 4 * MIB + 7};
        for (int depth : new int[] {1, 2}) {
            Configuration c = FsTestSupport.embeddedConf();
            c.setInt(SmartSsdConstants.WRITE_QUEUE_DEPTH, depth);
            try (FileSystem f = FsTestSupport.newFs("qw" + depth, c)) {
                for (int size : sizes) {
                    byte[] data = FsTestSupport.data(size, size + depth);
                    String path = "/d" + depth + "/s" + size;
                    try (FSDataOutputStream out = f.create(p(path))) {
                        // odd-sized writes, and an hflush in the middle
                        int half = size / 2;
                        for (int at = 0; at < half; at += 777_777) {
                            out.write(data, at, Math.min(777_777, half - at));
                        }
                        out.hflush();
                        assertThat(f.getFileStatus(p(path)).getLen()).isEqualTo(half);
                        out.write(data, half, size - half);
                    }
                    assertThat(readAll(f, path)).as("depth %d, %d bytes", depth, size)
                            .isEqualTo(data);
                    byte[] more = FsTestSupport.data(100_003, size);
                    try (FSDataOutputStream out = f.append(p(path))) {
                        out.write(more);
                    }
                    byte[] both = Arrays.copyOf(data, size + more.length);
                    System.arraycopy(more, 0, both, size, more.length);
                    assertThat(readAll(f, path)).as("depth %d, %d bytes appended", depth, size)
                            .isEqualTo(both);
                }
            }
        }
    }

    @Test
    void aFullDriveLeavesWholePiecesOfWhatWasWrittenAndNothingAfter() throws IOException {
        Configuration c = FsTestSupport.embeddedConf();
        c.set(SmartSsdConstants.EMBEDDED_PROFILE, FsTestSupport.tinyProfile(dir).toString());
        c.setLong(SmartSsdConstants.EMBEDDED_CAPACITY, 16L << 20);
        c.setInt(SmartSsdConstants.WRITE_QUEUE_DEPTH, 4);
        try (FileSystem f = FsTestSupport.newFs("qwfull", c)) {
            byte[] data = FsTestSupport.data(32 * MIB, 7);
            FSDataOutputStream out = f.create(p("/big"));
            assertThatThrownBy(() -> {
                out.write(data);
                out.close();
            }).isInstanceOf(DiskChecker.DiskOutOfSpaceException.class)
                    .hasMessageContaining("smartssd://qwfull/big");
            assertThatThrownBy(() -> out.write(1)).isInstanceOf(IOException.class)
                    .hasMessageContaining("an earlier write failed");
            out.close();
            long len = f.getFileStatus(p("/big")).getLen();
            assertThat(len).isPositive().isLessThan(16L << 20);
            assertThat(len % MIB).as("whole 1 MiB pieces").isZero();
            assertThat(readAll(f, "/big")).isEqualTo(Arrays.copyOf(data, (int) len));
        }
    }

    @Test
    void aDepthOutsideTheQueueIsRefusedByName() {
        for (int depth : new int[] {0, 33}) {
            Configuration c = FsTestSupport.embeddedConf();
            c.setInt(SmartSsdConstants.WRITE_QUEUE_DEPTH, depth);
            assertThatThrownBy(() -> FsTestSupport.newFs("qwbad" + depth, c).close())
                    .hasMessageContaining(SmartSsdConstants.WRITE_QUEUE_DEPTH)
                    .hasMessageContaining("outside 1..32");
        }
    }
}
