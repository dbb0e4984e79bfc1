package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;

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

/**
 * The input stream's read-ahead follows the reader: a pass fetches whole read-aheads, a
 * reader that jumps (as parquet-mr does between a row group's indexes near the footer and its
 * pages) fetches what it asks for, and at most twice that where it goes on from there.
 * What the stream fetched is {@code stream_read_total_bytes}; the reference is the test's
 * own sum of what it asked for, and every byte read is checked against the file.
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

    /** seek + readFully through a heap ByteBuffer, as parquet-mr's H2SeekableInputStream. */
    private static void readAt(FSDataInputStream in, long offset, int len) throws Exception {
        in.seek(offset);
        ByteBuffer got = ByteBuffer.allocate(len);
        while (got.hasRemaining()) {
            assertThat(in.read(got)).as("read at %d", in.getPos()).isPositive();
        }
        assertThat(got.array()).as("bytes at %d", offset)
                .isEqualTo(Arrays.copyOfRange(CONTENT, (int) offset, (int) offset + len));
    }

    @Test
    void aSequentialPassFetchesWholeReadAheads() throws Exception {
        try (FSDataInputStream in = fs.open(F)) {
            byte[] chunk = new byte[64 << 10];
            byte[] all = new byte[FILE];
            int at = 0;
            for (int n; (n = in.read(chunk)) > 0; at += n) {
                System.arraycopy(chunk, 0, all, at, n);
            }
            assertThat(at).isEqualTo(FILE);
            assertThat(all).isEqualTo(CONTENT);
            assertThat(fetched(in)).isEqualTo(FILE);
            assertThat(reads(in)).as("a READ a read-ahead, and the one that finds the end")
                    .isEqualTo(FILE / READAHEAD + 1);
        }
    }

    @Test
    void shortForwardSkipsStayAPass() throws Exception {
        // two of eleven columns of 64 KiB row groups: 10 KB read, 54 KB skipped
        try (FSDataInputStream in = fs.open(F)) {
            readAt(in, FILE - 8, 8);
            int asked = 0;
            for (long off = 0; off + 10_000 <= FILE; off += 64 << 10) {
                readAt(in, off, 10_000);
                asked += 10_000;
            }
            // after the first 1 MiB fetch, a jump back to 0 ramps up again: 10 KB, 20 KB, ...
            assertThat(reads(in)).as("READ commands").isLessThanOrEqualTo(FILE / READAHEAD + 10);
            assertThat(fetched(in)).isGreaterThan(asked);
        }
    }

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
