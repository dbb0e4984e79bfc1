package org.smartssd.fs.sscache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.smartssd.fs.sscache.SsCacheTestSupport.counter;
import static org.smartssd.fs.sscache.SsCacheTestSupport.data;
import static org.smartssd.fs.sscache.SsCacheTestSupport.read;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fills off the read path (issue #38 §1), on an embedded emulated drive. The filler asks
 * the write-back manager, under its monitor, whether an address is dirty before it writes a
 * block clean; a test that holds that monitor holds every fill, with no timing involved,
 * while its own reads go on (a monitor is reentrant: a fill made by the reading thread
 * itself, as before the queue, is not held).
 */
class FillQueueTest {
    private static final org.apache.hadoop.fs.Path F = new org.apache.hadoop.fs.Path("/d/f");

    private static Configuration conf(String drive, Path dir) {
        return SsCacheTestSupport.conf(drive, dir, SsCacheConstants.Mode.WRITE_BACK);
    }

    @Test
    void aColdReadHasItsBytesBeforeTheDriveIsWrittenAndCloseWaitsForTheFills(@TempDir Path dir)
            throws Exception {
        byte[] content = data(2_500_001, 7);   // three windows of 128 blocks
        Files.createDirectories(dir.resolve("d"));
        Files.write(dir.resolve("d/f"), content);
        try (SsCacheFileSystem fs = SsCacheTestSupport.open("fq1", conf("fq1", dir))) {
            int payload = CacheBlock.payloadBytes(fs.cache().blockSize());
            long blocks = (content.length + payload - 1) / payload;
            FSDataInputStream in = fs.open(F);
            byte[] got = new byte[content.length];
            synchronized (fs.writeBackManager()) {
                in.readFully(0, got);
                assertThat(got).isEqualTo(content);
                assertThat(counter(fs.getIOStatistics(), CacheStatistics.BLOCKS_FILLED))
                        .as("no fill made while the reader read every window").isZero();
                assertThat(counter(fs.getIOStatistics(), CacheStatistics.LOOKUPS)).isEqualTo(3);
            }
            in.close();
            IOStatistics closed = fs.getIOStatistics();
            assertThat(counter(closed, CacheStatistics.BLOCKS_FILLED))
                    .as("a closed stream's fills are made").isEqualTo(blocks);
            assertThat(read(fs, F)).isEqualTo(content);
            IOStatistics warm = fs.getIOStatistics();
            assertThat(counter(warm, CacheStatistics.BLOCK_HITS)).isEqualTo(blocks);
            assertThat(counter(warm, CacheStatistics.BYTES_FROM_BACKING))
                    .isEqualTo(content.length);
            assertThat(counter(warm, CacheStatistics.FILLS_FAILED)
                    + counter(warm, CacheStatistics.FILLS_DROPPED)).isZero();
        }
    }

    @Test
    void aFullQueueDropsTheFillAndCountsIt(@TempDir Path dir) throws Exception {
        byte[] content = data(2_500_001, 8);
        Files.createDirectories(dir.resolve("d"));
        Files.write(dir.resolve("d/f"), content);
        Configuration conf = conf("fq2", dir);
        String prefix = SsCacheConstants.CACHE_PREFIX + "fq2";
        conf.setLong(prefix + SsCacheConstants.FILL_QUEUE_SUFFIX, 1);
        conf.setLong(prefix + SsCacheConstants.FILL_WAIT_SUFFIX, 0);
        try (SsCacheFileSystem fs = SsCacheTestSupport.open("fq2", conf)) {
            int payload = CacheBlock.payloadBytes(fs.cache().blockSize());
            long blocks = (content.length + payload - 1) / payload;
            synchronized (fs.writeBackManager()) {
                // the first window's fill waits in the queue: the two after it find no room
                assertThat(read(fs, F)).isEqualTo(content);
                assertThat(counter(fs.getIOStatistics(), CacheStatistics.FILLS_DROPPED))
                        .isEqualTo(2);
            }
            fs.awaitFills(60_000);
            assertThat(counter(fs.getIOStatistics(), CacheStatistics.BLOCKS_FILLED))
                    .isEqualTo(128);
            assertThat(read(fs, F)).isEqualTo(content);
            IOStatistics again = fs.getIOStatistics();
            assertThat(counter(again, CacheStatistics.BLOCK_HITS)).isEqualTo(128);
            assertThat(counter(again, CacheStatistics.BLOCK_MISSES))
                    .isEqualTo(blocks + blocks - 128);
        }
    }

    @Test
    void noQueueMakesEveryFillBeforeTheReadReturns(@TempDir Path dir) throws Exception {
        byte[] content = data(1_000_003, 9);
        Files.createDirectories(dir.resolve("d"));
        Files.write(dir.resolve("d/f"), content);
        Configuration conf = conf("fq3", dir);
        conf.setLong(SsCacheConstants.CACHE_PREFIX + "fq3" + SsCacheConstants.FILL_QUEUE_SUFFIX,
                0);
        try (SsCacheFileSystem fs = SsCacheTestSupport.open("fq3", conf)) {
            int payload = CacheBlock.payloadBytes(fs.cache().blockSize());
            long blocks = (content.length + payload - 1) / payload;
            try (FSDataInputStream in = fs.open(F)) {
                byte[] got = new byte[content.length];
                in.readFully(0, got);
                assertThat(got).isEqualTo(content);
                assertThat(counter(fs.getIOStatistics(), CacheStatistics.BLOCKS_FILLED))
                        .isEqualTo(blocks);
            }
        }
    }
}
