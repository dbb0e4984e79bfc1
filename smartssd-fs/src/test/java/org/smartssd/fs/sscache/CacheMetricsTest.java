package org.smartssd.fs.sscache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.smartssd.fs.sscache.SsCacheTestSupport.counter;
import static org.smartssd.fs.sscache.SsCacheTestSupport.data;
import static org.smartssd.fs.sscache.SsCacheTestSupport.read;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.CacheCounters;

/**
 * The drive's count of the cache manager's traffic (SSC_INFO, what {@code smartssd info}
 * shows) against a known sscache:// workload over file://, counted here from the files'
 * sizes, and against the FileSystem's IOStatistics.
 */
class CacheMetricsTest {
    private static final long WAIT_MS = 120_000;

    @Test
    void theDrivesCountersAreTheWorkloadsBlocksAndAgreeWithTheIoStatistics(@TempDir Path dir)
            throws Exception {
        Configuration conf = SsCacheTestSupport.conf("mx1", dir,
                SsCacheConstants.Mode.WRITE_BACK);
        conf.set("smartssd.cache.mx1.dirty.threshold", "1.0"); // write back only when asked
        byte[] b = data(700_001, 5);
        byte[] c = data(1_000_003, 6);
        Files.createDirectories(dir.resolve("d"));
        Files.write(dir.resolve("d/b"), b);
        org.apache.hadoop.fs.Path pb = new org.apache.hadoop.fs.Path("/d/b");
        org.apache.hadoop.fs.Path pc = new org.apache.hadoop.fs.Path("/d/c");
        try (SsCacheFileSystem fs = SsCacheTestSupport.open("mx1", conf)) {
            long bs = fs.cache().blockSize();
            int payload = CacheBlock.payloadBytes((int) bs);
            long blocksB = (b.length + payload - 1) / payload;
            long blocksC = (c.length + payload - 1) / payload;
            // one manifest reservation covers c: create, reserve and close write it once each
            assertThat(blocksC).isLessThanOrEqualTo(WriteBackManager.RESERVE_STEP);
            long manifestWrites = 3;
            CacheCounters before = fs.cache().counters();

            assertThat(read(fs, pb)).isEqualTo(b);            // cold: every block filled
            assertThat(read(fs, pb)).isEqualTo(b);            // warm: every block a hit
            try (FSDataOutputStream out = fs.create(pc)) {    // written dirty
                out.write(c);
            }
            assertThat(fs.writeBackManager().writeBackAll(WAIT_MS)).isZero(); // read, cleaned
            assertThat(Files.readAllBytes(dir.resolve("d/c"))).isEqualTo(c);
            assertThat(read(fs, pc)).isEqualTo(c);            // the cleaned blocks are hits

            CacheCounters after = fs.cache().counters();
            IOStatistics io = fs.getIOStatistics();
            long hits = after.hitBytes() - before.hitBytes();
            long filled = after.filledBytes() - before.filledBytes();
            long dirty = after.dirtyWrittenBytes() - before.dirtyWrittenBytes();
            long cleanOps = after.cleanOps() - before.cleanOps();
            long cleaned = after.cleanedBytes() - before.cleanedBytes();
            long evicted = after.evictedBlocks() - before.evictedBlocks();

            // the workload's own count
            assertThat(hits).isEqualTo((blocksB + blocksC + blocksC) * bs); // + the write-back's reads
            assertThat(filled).isEqualTo(blocksB * bs);
            assertThat(dirty).isEqualTo((blocksC + manifestWrites) * bs);
            assertThat(cleanOps).isEqualTo(1);
            assertThat(cleaned).isEqualTo(blocksC * bs);
            assertThat(evicted).isEqualTo(1);                 // c's manifest, once written back

            // and the IOStatistics of the same traffic
            assertThat(hits).isEqualTo((counter(io, CacheStatistics.BLOCK_HITS)
                    + counter(io, CacheStatistics.WRITE_BACK_BLOCKS)) * bs);
            assertThat(filled).isEqualTo(counter(io, CacheStatistics.BLOCKS_FILLED) * bs);
            assertThat(dirty).isEqualTo(
                    (counter(io, CacheStatistics.BLOCKS_DIRTIED) + manifestWrites) * bs);
            assertThat(cleanOps).isEqualTo(counter(io, CacheStatistics.WRITE_BACKS));
            assertThat(cleaned).isEqualTo(counter(io, CacheStatistics.WRITE_BACK_BLOCKS) * bs);
            assertThat(counter(io, CacheStatistics.BYTES_FROM_CACHE))
                    .isEqualTo(b.length + c.length);
            assertThat(counter(io, CacheStatistics.BYTES_FROM_BACKING)).isEqualTo(b.length);
        }
    }
}
