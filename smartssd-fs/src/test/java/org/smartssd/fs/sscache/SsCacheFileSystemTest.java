package org.smartssd.fs.sscache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.smartssd.fs.sscache.SsCacheTestSupport.counter;
import static org.smartssd.fs.sscache.SsCacheTestSupport.data;
import static org.smartssd.fs.sscache.SsCacheTestSupport.read;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.SolidStateCache;

/** sscache:// in write-through mode over file://, on an embedded emulated drive. */
class SsCacheFileSystemTest {
    private static final org.apache.hadoop.fs.Path F = new org.apache.hadoop.fs.Path("/d/f");

    @Test
    void aColdReadFillsTheCacheAndAWarmReadNeedsNoBackingStore(@TempDir Path dir) throws Exception {
        byte[] content = data(1_000_003, 1);
        Files.createDirectories(dir.resolve("d"));
        Files.write(dir.resolve("d/f"), content);
        try (SsCacheFileSystem fs = SsCacheTestSupport.open("wt1",
                SsCacheTestSupport.conf("wt1", dir, SsCacheConstants.Mode.WRITE_THROUGH))) {
            int payload = CacheBlock.payloadBytes(fs.cache().blockSize());
            long blocks = (content.length + payload - 1) / payload;

            assertThat(read(fs, F)).isEqualTo(content);
            IOStatistics cold = fs.getIOStatistics();
            assertThat(counter(cold, CacheStatistics.BLOCK_MISSES)).isEqualTo(blocks);
            assertThat(counter(cold, CacheStatistics.BLOCK_HITS)).isZero();
            assertThat(counter(cold, CacheStatistics.BYTES_FROM_BACKING)).isEqualTo(content.length);
            assertThat(counter(cold, CacheStatistics.BLOCKS_FILLED)).isEqualTo(blocks);

            assertThat(read(fs, F)).isEqualTo(content);
            IOStatistics warm = fs.getIOStatistics();
            assertThat(counter(warm, CacheStatistics.BLOCK_HITS)).isEqualTo(blocks);
            assertThat(counter(warm, CacheStatistics.BYTES_FROM_BACKING)).isEqualTo(content.length);
            assertThat(counter(warm, CacheStatistics.BYTES_FROM_CACHE)).isEqualTo(content.length);
            assertThat(warm.meanStatistics().get(CacheStatistics.HIT_RATIO).mean())
                    .isEqualTo(0.5);

            // positioned reads across block boundaries, served from the cache
            try (FSDataInputStream in = fs.open(F)) {
                byte[] part = new byte[3 * payload];
                in.readFully(payload - 7, part);
                assertThat(part).isEqualTo(java.util.Arrays.copyOfRange(content, payload - 7,
                        payload - 7 + part.length));
            }
        }
    }

    @Test
    void aFileChangedBehindTheCacheIsNeverServedStale(@TempDir Path dir) throws Exception {
        Path local = dir.resolve("d/f");
        Files.createDirectories(local.getParent());
        byte[] v1 = data(300_000, 1);
        Files.write(local, v1);
        FileTime t1 = FileTime.fromMillis(1_700_000_000_000L);
        Files.setLastModifiedTime(local, t1);
        try (SsCacheFileSystem fs = SsCacheTestSupport.open("wt2",
                SsCacheTestSupport.conf("wt2", dir, SsCacheConstants.Mode.WRITE_THROUGH))) {
            assertThat(read(fs, F)).isEqualTo(v1);
            assertThat(read(fs, F)).isEqualTo(v1); // warm

            // the same length, new content, a new modification time
            byte[] v2 = data(300_000, 2);
            Files.write(local, v2);
            Files.setLastModifiedTime(local, FileTime.fromMillis(t1.toMillis() + 1000));
            assertThat(read(fs, F)).isEqualTo(v2);

            // new content, a new length, and the old modification time put back
            byte[] v3 = data(200_000, 3);
            Files.write(local, v3);
            Files.setLastModifiedTime(local, t1);
            assertThat(read(fs, F)).isEqualTo(v3);

            // grown by an append with the old modification time: the last block differs
            byte[] tail = data(5, 4);
            Files.write(local, tail, java.nio.file.StandardOpenOption.APPEND);
            Files.setLastModifiedTime(local, t1);
            byte[] v4 = new byte[v3.length + tail.length];
            System.arraycopy(v3, 0, v4, 0, v3.length);
            System.arraycopy(tail, 0, v4, v3.length, tail.length);
            assertThat(read(fs, F)).isEqualTo(v4);
        }
    }

    @Test
    void aBlockOfAnotherPathAtTheSameAddressIsAMiss(@TempDir Path dir) throws Exception {
        Path local = dir.resolve("d/f");
        Files.createDirectories(local.getParent());
        byte[] content = data(50_000, 5);
        Files.write(local, content);
        try (SsCacheFileSystem fs = SsCacheTestSupport.open("wt3",
                SsCacheTestSupport.conf("wt3", dir, SsCacheConstants.Mode.WRITE_THROUGH))) {
            SolidStateCache cache = fs.cache();
            int bs = cache.blockSize();
            int payload = CacheBlock.payloadBytes(bs);
            FileStatus st = fs.backing().getFileStatus(fs.toBacking(F));
            FileVersion mine = FileVersion.of(st);
            long base = CacheBlock.Addresses.dataBase(mine.pathKey());
            // what a colliding path would leave at block 0's address: the right index,
            // length and CRC, another version's digest
            FileVersion other = new FileVersion(mine.pathKey() + "-other", mine.length(),
                    mine.mtime(), "");
            byte[] wrong = data(payload, 6);
            byte[] raw = new byte[bs];
            CacheBlock.encode(raw, 0, bs, other.digest(), 0, CacheBlock.ANY_LENGTH, wrong, 0,
                    payload);
            cache.writeClean(base, raw, 0, 1);
            // and a block of this very version whose payload was damaged after its CRC
            CacheBlock.encode(raw, 0, bs, mine.digest(), 1, CacheBlock.ANY_LENGTH, content,
                    payload, payload);
            raw[CacheBlock.HEADER_BYTES + 10] ^= 1;
            cache.writeClean(base + 1, raw, 0, 1);

            assertThat(read(fs, F)).isEqualTo(content);
            assertThat(counter(fs.getIOStatistics(), CacheStatistics.BLOCK_HITS)).isZero();
            assertThat(read(fs, F)).isEqualTo(content); // refilled with the right blocks
            assertThat(counter(fs.getIOStatistics(), CacheStatistics.BLOCK_HITS))
                    .isEqualTo((content.length + payload - 1) / payload);
        }
    }

    @Test
    void writeThroughWritesTheBackingStoreAndWarmsTheCache(@TempDir Path dir) throws Exception {
        try (SsCacheFileSystem fs = SsCacheTestSupport.open("wt4",
                SsCacheTestSupport.conf("wt4", dir, SsCacheConstants.Mode.WRITE_THROUGH))) {
            int payload = CacheBlock.payloadBytes(fs.cache().blockSize());
            int[] sizes = {0, 1, payload, 3 * payload, 2_000_000 + 11};
            for (int i = 0; i < sizes.length; i++) {
                byte[] content = data(sizes[i], 10 + i);
                org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/w/f" + i);
                try (FSDataOutputStream out = fs.create(p)) {
                    out.write(content, 0, content.length / 2);
                    out.write(content, content.length / 2, content.length - content.length / 2);
                }
                assertThat(Files.readAllBytes(dir.resolve("w/f" + i))).isEqualTo(content);
                long backingBefore = counter(fs.getIOStatistics(),
                        CacheStatistics.BYTES_FROM_BACKING);
                assertThat(read(fs, p)).isEqualTo(content);
                assertThat(counter(fs.getIOStatistics(), CacheStatistics.BYTES_FROM_BACKING))
                        .as("bytes of f%d read from the backing store", i).isEqualTo(backingBefore);
            }
            assertThat(counter(fs.getIOStatistics(), CacheStatistics.BLOCK_MISSES)).isZero();
        }
    }

    @Test
    void blockLocationsNameTheDriveForCachedSlices(@TempDir Path dir) throws Exception {
        Configuration conf = SsCacheTestSupport.conf("wt5", dir,
                SsCacheConstants.Mode.WRITE_THROUGH);
        conf.set("smartssd.device.wt5.host", "drive-host-5");
        conf.setLong("fs.local.block.size", 1 << 20);
        Files.createDirectories(dir.resolve("d"));
        byte[] content = data(3 << 20, 7);
        Files.write(dir.resolve("d/f"), content);
        try (SsCacheFileSystem fs = SsCacheTestSupport.open("wt5", conf)) {
            try (FSDataInputStream in = fs.open(F)) {
                in.readFully(0, new byte[4096]); // caches the first window only
            }
            FileStatus st = fs.getFileStatus(F);
            BlockLocation[] loc = fs.getFileBlockLocations(st, 0, st.getLen());
            assertThat(loc).hasSize(3);
            assertThat(loc[0].getHosts()).startsWith("drive-host-5");
            assertThat(loc[1].getHosts()).doesNotContain("drive-host-5");
            assertThat(loc[2].getHosts()).doesNotContain("drive-host-5");
            assertThat(loc[0].getOffset()).isZero();
            assertThat(loc[2].getOffset() + loc[2].getLength()).isEqualTo(content.length);
        }
    }

    @Test
    void theNamespaceIsTheBackingStores(@TempDir Path dir) throws Exception {
        try (SsCacheFileSystem fs = SsCacheTestSupport.open("wt6",
                SsCacheTestSupport.conf("wt6", dir, SsCacheConstants.Mode.WRITE_THROUGH))) {
            assertThat(fs.mkdirs(new org.apache.hadoop.fs.Path("/a/b"))).isTrue();
            assertThat(Files.isDirectory(dir.resolve("a/b"))).isTrue();
            Files.write(dir.resolve("a/b/x"), data(10, 1));
            FileStatus[] list = fs.listStatus(new org.apache.hadoop.fs.Path("/a/b"));
            assertThat(list).hasSize(1);
            assertThat(list[0].getPath().toUri()).isEqualTo(URI.create("sscache://wt6/a/b/x"));
            assertThat(fs.rename(new org.apache.hadoop.fs.Path("/a/b/x"),
                    new org.apache.hadoop.fs.Path("/a/y"))).isTrue();
            assertThat(Files.exists(dir.resolve("a/y"))).isTrue();
            assertThat(fs.delete(new org.apache.hadoop.fs.Path("/a"), true)).isTrue();
            assertThat(Files.exists(dir.resolve("a"))).isFalse();
        }
    }

    @Test
    void aMissingOrWrongConfigurationSaysWhatToSet(@TempDir Path dir) {
        Configuration conf = new Configuration();
        conf.setBoolean("smartssd.device.embedded.allowed", true);
        assertThatThrownBy(() -> FileSystem.newInstance(URI.create("sscache://nb/"), conf))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("smartssd.cache.nb.backing");
        Configuration bad = SsCacheTestSupport.conf("bm", dir, SsCacheConstants.Mode.WRITE_BACK);
        bad.set("smartssd.cache.bm.mode", "write-sideways");
        assertThatThrownBy(() -> FileSystem.newInstance(URI.create("sscache://bm/"), bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("smartssd.cache.bm.mode")
                .hasMessageContaining("write-sideways");
    }
}
