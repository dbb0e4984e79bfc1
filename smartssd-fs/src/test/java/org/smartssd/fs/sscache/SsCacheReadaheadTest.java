package org.smartssd.fs.sscache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.smartssd.fs.ReadPatterns.linkBytes;
import static org.smartssd.fs.sscache.SsCacheTestSupport.counter;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.hadoop.fs.FSDataInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.ReadPatterns;

/**
 * {@code sscache://} reads follow the reader as {@code smartssd://} reads do
 * ({@code AdaptiveReadahead}): a pass fetches whole windows, a jump fetches the cache blocks
 * that hold what it asks for. What crossed the link is the drive's own counters, what came
 * from the backing store the cache's {@code sscache_bytes_from_backing}; the reference is
 * the test's own sum of what it asked for, and every byte read is checked against the file.
 */
class SsCacheReadaheadTest {
    private static final int FILE = 16 << 20;
    private static final int GROUP = 256 << 10;
    private static final byte[] CONTENT = SsCacheTestSupport.data(FILE, 91);
    private static final org.apache.hadoop.fs.Path F = new org.apache.hadoop.fs.Path("/pq/f");

    private static SsCacheFileSystem open(String drive, Path dir) throws Exception {
        Files.createDirectories(dir.resolve("pq"));
        Files.write(dir.resolve("pq/f"), CONTENT);
        return SsCacheTestSupport.open(drive,
                SsCacheTestSupport.conf(drive, dir, SsCacheConstants.Mode.WRITE_THROUGH));
    }

    /**
     * Spark's Parquet reader with a filter, as in {@code AdaptiveReadaheadTest}: the footer's
     * tail and the footer, then a few bytes at the start of one column chunk in every row
     * group (the dictionary page header a byte at a time, then the page), then each row
     * group's selected chunk by vectored read. Row groups of 256 KiB, so what is skipped is
     * more than the cache blocks a request must round out to.
     */
    private static ReadPatterns.Asked filteredParquetScan(SsCacheFileSystem fs)
            throws Exception {
        try (FSDataInputStream in = fs.open(F)) {
            return ReadPatterns.filteredParquetScan(in, CONTENT, GROUP, 100_000);
        }
    }

    private static long commands(SmartSsdDevice dev) throws Exception {
        return dev.modelCounters().orElseThrow().hostCommands();
    }

    private static long fromBacking(SsCacheFileSystem fs) {
        return counter(fs.getIOStatistics(), CacheStatistics.BYTES_FROM_BACKING);
    }

    /**
     * A request's bytes rounded out to whole cache blocks: at most one block's payload more
     * at each end (a read of fewer than {@code RANDOM_FILL_MIN} bytes takes one block).
     */
    private static long blocksAllowance(int payload) {
        return 2L * payload;
    }

    /**
     * What one command moves over the link beyond its blocks: its 512 B command block, its
     * reply's 64 B header and the reply's rounding up to 512 B sectors (at most 511 B), and
     * a READ's bitmap of the blocks present (one sector at most).
     */
    private static long commandAllowance() {
        return 512 + 64 + 511 + 512;
    }

    /**
     * What a request may move over the link beyond its bytes, when its blocks are cached:
     * the blocks it rounds out to (each whole, with its 64 B header) and one READ.
     */
    private static long linkAllowance(int blockSize) {
        return 2L * blockSize + commandAllowance();
    }

    /**
     * Cold, the blocks a request needs are read from the backing store whole (a cache block
     * holds a whole payload, only the file's last one is partial), so what comes from the
     * store is what was asked plus at most the rounding out to blocks, and the link carries
     * those blocks filled plus a READ (a miss moves no block back) and a fill a request.
     * Warm, the link carries what was asked (in whole blocks, so times blockSize / payload
     * for the headers) plus a block at each end and one READ's overhead a request. Before
     * the read-ahead followed the reader, every jump loaded a whole window of 128 blocks:
     * for 2.6 MB asked the scan read 16.8 MB from the store and moved 34.8 MB over the link
     * cold, 33.6 MB warm.
     */
    @Test
    void aFilteredParquetScanMovesWhatItAsksFor(@TempDir Path dir) throws Exception {
        try (SsCacheFileSystem fs = open("ra1", dir)) {
            SmartSsdDevice dev = fs.device();
            int blockSize = fs.cache().blockSize();
            int payload = CacheBlock.payloadBytes(blockSize);
            long cost = linkBytes(dev) - linkBytes(dev);   // a snapshot's own command

            long backingBefore = fromBacking(fs);
            long coldLinkBefore = linkBytes(dev);
            ReadPatterns.Asked cold = filteredParquetScan(fs);
            long coldLink = linkBytes(dev) - coldLinkBefore - cost;
            long storeBytes = fromBacking(fs) - backingBefore;

            long warmBacking = fromBacking(fs);
            long before = linkBytes(dev);
            ReadPatterns.Asked warm = filteredParquetScan(fs);
            long moved = linkBytes(dev) - before - cost;
            long warmStoreBytes = fromBacking(fs) - warmBacking;
            System.out.printf("sscache filtered Parquet scan of a %d B file: asked %d B in %d"
                    + " requests; cold: %d B from the store, %d B over the link (fills"
                    + " included); warm: %d B over the link%n", FILE, cold.bytes(),
                    cold.requests(), storeBytes, coldLink, moved);

            assertThat(storeBytes)
                    .as("backing-store bytes, cold, for %d asked in %d requests", cold.bytes(),
                            cold.requests())
                    .isBetween(cold.bytes(),
                            cold.bytes() + cold.requests() * blocksAllowance(payload));
            long filled = (storeBytes + payload - 1) / payload * blockSize;
            assertThat(coldLink)
                    .as("link bytes, cold: the blocks filled and two commands a request")
                    .isBetween(filled, filled + cold.requests() * 2 * commandAllowance());
            assertThat(warmStoreBytes).as("a warm pass reads nothing from the store").isZero();
            long asBlocks = (warm.bytes() * blockSize + payload - 1) / payload;
            assertThat(moved)
                    .as("link bytes, warm, for %d asked in %d requests", warm.bytes(),
                            warm.requests())
                    .isBetween(warm.bytes(),
                            asBlocks + warm.requests() * linkAllowance(blockSize));
        }
    }

    /**
     * A sequential pass keeps whole windows: 64 KiB reads of the file take one drive READ a
     * window of {@code maxBlocksPerCall} blocks, cold (each window's misses one positioned
     * read of the store) and warm.
     */
    @Test
    void aSequentialPassReadsWholeWindows(@TempDir Path dir) throws Exception {
        try (SsCacheFileSystem fs = open("ra2", dir)) {
            SmartSsdDevice dev = fs.device();
            int payload = CacheBlock.payloadBytes(fs.cache().blockSize());
            long window = (long) Math.max(1, BlockCacheIo.MAX_TRANSFER / fs.cache().blockSize())
                    * payload;
            long windows = (FILE + window - 1) / window;

            long lookups = counter(fs.getIOStatistics(), CacheStatistics.LOOKUPS);
            long backing = fromBacking(fs);
            readSequentially(fs);
            assertThat(counter(fs.getIOStatistics(), CacheStatistics.LOOKUPS) - lookups)
                    .as("drive READs of a cold pass, %d windows", windows)
                    .isEqualTo(windows);
            assertThat(fromBacking(fs) - backing).isEqualTo(FILE);

            long cost = commands(dev) - commands(dev);
            long before = commands(dev);
            fs.cache().read(0, 1, new byte[fs.cache().blockSize()], 0);
            long perRead = commands(dev) - before - cost;   // its SEND and RECV (PROTOCOL.md)
            before = commands(dev);
            readSequentially(fs);
            assertThat(commands(dev) - before - cost)
                    .as("drive commands of a warm pass, %d windows of %d each", windows, perRead)
                    .isEqualTo(windows * perRead);
            assertThat(fromBacking(fs) - backing).as("a warm pass reads nothing from the store")
                    .isEqualTo(FILE);
        }
    }

    private static void readSequentially(SsCacheFileSystem fs) throws Exception {
        try (FSDataInputStream in = fs.open(F)) {
            ReadPatterns.readWhole(in, CONTENT);
        }
    }
}
