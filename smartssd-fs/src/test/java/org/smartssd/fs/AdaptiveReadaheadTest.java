package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.smartssd.fs.ReadPatterns.linkBytes;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.apache.hadoop.fs.statistics.StreamStatisticNames;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.smartssd.device.SmartSsdDevice;

/**
 * The input stream's read-ahead follows the reader: a pass fetches whole read-aheads, a
 * reader that jumps, back or forward (as parquet-mr does between a row group's indexes near
 * the footer and its pages, and from one row group's dictionary page to the next), fetches
 * what it asks for, and at most twice that where it goes on from there. What the stream
 * fetched is {@code stream_read_total_bytes}, what crossed the link the drive's own
 * counters; the reference is the test's own sum of what it asked for, and every byte read
 * is checked against the file.
 */
class AdaptiveReadaheadTest {
    private static final int FILE = 8 << 20;
    private static final int READAHEAD = 1 << 20;
    private static final Path F = new Path("/ra/f");
    private static final byte[] CONTENT = FsTestSupport.data(FILE, 77);
    private static FileSystem fs;

    @BeforeAll
    static void write() throws Exception {
        Configuration conf = FsTestSupport.embeddedConf();
        // every test reads the one file's end: with the tail cache on, the later ones would
        // measure it (TailCacheTest) instead of the read-ahead rule
        conf.setLong(SmartSsdConstants.TAIL_CACHE_BYTES, 0);
        fs = FsTestSupport.newFs("readahead", conf);
        try (FSDataOutputStream out = fs.create(F)) {
            out.write(CONTENT);
        }
    }

    @AfterAll
    static void close() throws Exception {
        fs.close();
    }

    private static long fetched(FSDataInputStream in) {
        IOStatistics s = IOStatisticsSupport.retrieveIOStatistics(in);
        return s.counters().get(StreamStatisticNames.STREAM_READ_TOTAL_BYTES);
    }

    private static long reads(FSDataInputStream in) {
        IOStatistics s = IOStatisticsSupport.retrieveIOStatistics(in);
        return s.counters().get(StreamStatisticNames.STREAM_READ_OPERATIONS);
    }

    private static void readAt(FSDataInputStream in, long offset, int len) throws Exception {
        ReadPatterns.readAt(in, CONTENT, offset, len);
    }

    @Test
    void aSequentialPassFetchesWholeReadAheads() throws Exception {
        try (FSDataInputStream in = fs.open(F)) {
            ReadPatterns.readWhole(in, CONTENT);
            assertThat(fetched(in)).isEqualTo(FILE);
            assertThat(reads(in)).as("a READ a read-ahead, and the one that finds the end")
                    .isEqualTo(FILE / READAHEAD + 1);
        }
    }

    @Test
    void forwardSkipsFetchWhatIsAsked() throws Exception {
        // two of eleven columns of 64 KiB row groups: 10 KB read, 54 KB skipped. Read through,
        // the skipped bytes cost 5.4 times what is read; a READ costs about 2 KB (class comment)
        try (FSDataInputStream in = fs.open(F)) {
            readAt(in, FILE - 8, 8);
            long first = fetched(in);
            int asked = 0;
            for (long off = 0; off + 10_000 <= FILE; off += 64 << 10) {
                readAt(in, off, 10_000);
                asked += 10_000;
            }
            assertThat(fetched(in) - first).as("bytes fetched after the first read")
                    .isEqualTo(asked);
        }
    }

    @Test
    void skipsShorterThanAReadAreReadThrough() throws Exception {
        // records of 1,000 B with 1,000 B skipped between: read through, a skipped byte costs
        // less than a READ a record would (class comment)
        int region = 2 << 20;
        try (FSDataInputStream in = fs.open(F)) {
            readAt(in, FILE - 8, 8);
            long first = reads(in);
            for (long off = 0; off + 1000 <= region; off += 2000) {
                readAt(in, off, 1000);
            }
            // from 1,000 B the fetches double to 1 MiB in 11 READs, then one a read-ahead
            assertThat(reads(in) - first).as("READ commands after the first")
                    .isLessThanOrEqualTo(11 + region / READAHEAD + 1);
            assertThat(fetched(in)).isLessThanOrEqualTo(region + 2L * READAHEAD);
        }
    }

    /**
     * Spark's Parquet reader with a filter, as the benchmark's selective query: after the
     * footer, a few bytes at the start of one column chunk in every row group (the dictionary
     * page header and page, read a byte at a time, then whole), then each row group's
     * selected chunks by vectored read. The drive's own link counters must show what was
     * asked plus at most {@value #PER_REQUEST} bytes a request. While a short forward skip
     * counted as a pass, the dictionary reads doubled up to whole read-aheads and fetched the
     * file once more: 13.3 MB over the link for 5.1 MB asked.
     */
    @Test
    void aFilteredParquetScanMovesWhatItAsksForOverTheLink() throws Exception {
        SmartSsdDevice dev = ((SmartSsdFileSystem) fs).device();
        long cost = linkBytes(dev) - linkBytes(dev);   // a snapshot's own command
        try (FSDataInputStream in = fs.open(F)) {
            long before = linkBytes(dev);
            // 64 KiB row groups; 25,536 B from a chunk's end to the next group's: more than a
            // vectored read's min-seek
            ReadPatterns.Asked asked = ReadPatterns.filteredParquetScan(in, CONTENT, 64 << 10,
                    20_000);
            long moved = linkBytes(dev) - before - cost;
            assertThat(moved).as("link bytes for %d asked in %d requests", asked.bytes(),
                    asked.requests()).isBetween(asked.bytes(),
                    asked.bytes() + asked.requests() * PER_REQUEST);
        }
    }

    /**
     * A short read after a jump, as parquet-mr's reads of a page header, a dictionary page or
     * a row group's column index: one READ, its 512 B command in and a reply of one 512 B
     * sector out (PROTOCOL.md 1.2: 64 B of header, then the data, padded to a sector), so
     * the fill is no larger than what that sector holds.
     */
    @Test
    void aShortReadAfterAJumpMovesOneReplySector() throws Exception {
        SmartSsdDevice dev = ((SmartSsdFileSystem) fs).device();
        long cost = linkBytes(dev) - linkBytes(dev);
        int jumps = 100;
        try (FSDataInputStream in = fs.open(F)) {
            readAt(in, FILE - 8, 8);
            long before = linkBytes(dev);
            for (int i = 0; i < jumps; i++) {
                long at = (long) i * (64 << 10) + 1000;
                in.seek(at);
                for (int b = 0; b < 20; b++) {
                    assertThat(in.read()).as("byte %d", at + b)
                            .isEqualTo(CONTENT[(int) at + b] & 0xff);
                }
                readAt(in, at + 20, 30);
            }
            assertThat(linkBytes(dev) - before - cost).as("link bytes of %d short reads", jumps)
                    .isEqualTo(jumps * (512L + 512));
        }
    }

    /**
     * What a request may cost beyond its bytes: one READ's 512 B command block, its reply's
     * 64 B header and the reply's rounding up to 512 B sectors (at most 511 B), and a fill of
     * at most a sector past what was asked ({@code RANDOM_FILL_MIN} is less).
     */
    private static final int PER_REQUEST = 512 + 64 + 511 + 512;

    @Test
    void aReaderThatJumpsFetchesWhatItAsksFor() throws Exception {
        // parquet-mr over row groups with column and offset indexes: the footer's tail, the
        // footer, then each row group's index entries (near the footer) and its pages
        long indexRegion = FILE - (200 << 10);
        try (FSDataInputStream in = fs.open(F)) {
            readAt(in, FILE - 8, 8);
            long first = fetched(in);
            readAt(in, FILE - (100 << 10), 90_000);
            long asked = 90_000;
            for (int rg = 0; rg < 20; rg++) {
                readAt(in, indexRegion + rg * 700L, 300);
                readAt(in, indexRegion + rg * 700L + 300, 400);
                readAt(in, rg * 350_000L, 40_000);
                asked += 300 + 400 + 40_000;
            }
            long readsAfterFirst = 1 + 20 * 3;
            // each read fetches at most twice what it asks for, or a 512 B sector
            assertThat(fetched(in) - first)
                    .as("bytes fetched after the first read, against %d asked", asked)
                    .isLessThanOrEqualTo(2 * asked + readsAfterFirst * 512);
        }
    }
}
