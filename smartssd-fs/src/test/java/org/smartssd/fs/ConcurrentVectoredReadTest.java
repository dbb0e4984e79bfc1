package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.StreamStatisticNames;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;

/**
 * Vectored reads larger than the drive's reply memory (4 MiB), from many threads at once,
 * as Spark's Parquet reader issues them (issue #34, item 1): every range's bytes, never BUSY,
 * in-process and through smartssd-devd. Close ranges are merged into one read.
 */
@Tag("full")
class ConcurrentVectoredReadTest {
    private static final int FILE = 24 << 20;
    private static final int THREADS = 4;
    private static final int ROUNDS = 2;
    private static final Duration READY = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void manyThreadsReadLargeVectorsOnAnEmuDrive() throws Exception {
        Path img = dir.resolve("c.img");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 0);
        readConcurrently("emu:" + img);
    }

    @Test
    void manyThreadsReadLargeVectorsThroughTheDaemon() throws Exception {
        Path img = dir.resolve("c.img");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 0);
        try (Devd devd = Devd.start(img, dir.resolve("c.sock"), READY)) {
            readConcurrently(devd.uri());
        }
    }

    private static void readConcurrently(String uri) throws Exception {
        byte[] want = FsTestSupport.data(FILE, 17);
        Configuration conf = new Configuration();
        conf.set("smartssd.device.c.uri", uri);
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/pq/data");
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (FileSystem fs = FileSystem.newInstance(URI.create("smartssd://c/"), conf)) {
            try (FSDataOutputStream out = fs.create(file)) {
                out.write(want);
            }
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int seed = t;
                done.add(pool.submit(() -> {
                    for (int round = 0; round < ROUNDS; round++) {
                        readAndCheck(fs, file, want, seed * ROUNDS + round);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(10, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Column-chunk-like ranges: a few of several MiB and some small ones, 8..20 MiB in all,
     * in a stream of its own; heap buffers in odd rounds, direct in even ones.
     */
    private static void readAndCheck(FileSystem fs, org.apache.hadoop.fs.Path file, byte[] want,
                                     int k) throws Exception {
        List<FileRange> ranges = new ArrayList<>();
        long at = 1000L * k;
        int[] sizes = {(3 << 20) + k, 700_000, 5 << 20, 12_345, (2 << 20) - k, 4 << 20};
        for (int size : sizes) {
            if (at + size > FILE) {
                break;
            }
            ranges.add(FileRange.createFileRange(at, size));
            at += size + 100_000 + k;
        }
        IntFunction<ByteBuffer> allocate = k % 2 == 1 ? ByteBuffer::allocate
                : ByteBuffer::allocateDirect;
        try (FSDataInputStream in = fs.open(file)) {
            in.readVectored(ranges, allocate);
            for (FileRange r : ranges) {
                ByteBuffer b = r.getData().get(5, TimeUnit.MINUTES);
                byte[] got = new byte[r.getLength()];
                b.get(got);
                int from = (int) r.getOffset();
                assertThat(got).as("range %s of read %d", r, k)
                        .isEqualTo(Arrays.copyOfRange(want, from, from + r.getLength()));
            }
        }
    }

    @Test
    void closeRangesAreReadAsOne() throws Exception {
        Path img = dir.resolve("m.img");
        SmartSsdDevice.formatEmulated(img, null, 64L << 20, 0);
        byte[] want = FsTestSupport.data(1 << 20, 3);
        Configuration conf = new Configuration();
        conf.set("smartssd.device.m.uri", "emu:" + img);
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/m");
        int len = 100;
        try (FileSystem fs = FileSystem.newInstance(URI.create("smartssd://m/"), conf)) {
            try (FSDataOutputStream out = fs.create(file)) {
                out.write(want);
            }
            try (FSDataInputStream in = fs.open(file)) {
                // gaps of 0 and seek - 1 (merged: less than minSeekForVectorReads apart),
                // then seek (not merged), then far away
                int seek = in.minSeekForVectorReads();
                long third = 200 + seek - 1;
                long[] offsets = {0, 100, third, third + len + seek, 900_000};
                List<FileRange> ranges = new ArrayList<>();
                for (int i = offsets.length - 1; i >= 0; i--) {
                    ranges.add(FileRange.createFileRange(offsets[i], len));
                }
                in.readVectored(ranges, ByteBuffer::allocate);
                for (FileRange r : ranges) {
                    byte[] got = new byte[len];
                    r.getData().get(1, TimeUnit.MINUTES).get(got);
                    int from = (int) r.getOffset();
                    assertThat(got).isEqualTo(Arrays.copyOfRange(want, from, from + len));
                }
                IOStatistics s = in.getIOStatistics();
                assertThat(s.counters().get(
                        StreamStatisticNames.STREAM_READ_VECTORED_INCOMING_RANGES)).isEqualTo(5L);
                // {0, 100, third}, {third + len + seek}, {900000}
                assertThat(s.counters().get(
                        StreamStatisticNames.STREAM_READ_VECTORED_COMBINED_RANGES)).isEqualTo(3L);
                assertThat(s.counters().get(StreamStatisticNames.STREAM_READ_OPERATIONS))
                        .isEqualTo(3L);
                // the gaps inside the first merged read: 0 and seek - 1 bytes
                assertThat(s.counters().get(
                        StreamStatisticNames.STREAM_READ_VECTORED_READ_BYTES_DISCARDED))
                        .isEqualTo(seek - 1L);
            }
        }
    }
}
