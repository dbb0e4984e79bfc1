package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.apache.hadoop.fs.statistics.StreamStatisticNames;
import org.junit.jupiter.api.Test;
import org.smartssd.device.ObjectStat;
import org.smartssd.device.SmartSsdDevice;

/**
 * The tail cache of a smartssd:// instance: the streams that read a file's end after the
 * first take it from memory, which the drive's own link counters show; every change,
 * through this instance or another, is read back, never a tail of an earlier version.
 */
class TailCacheTest {
    private static final int MB = 1 << 20;

    private static long linkBytes(FileSystem fs) throws IOException {
        return ReadPatterns.linkBytes(((SmartSsdFileSystem) fs).device());
    }

    private static void write(FileSystem fs, Path p, byte[] data) throws IOException {
        try (FSDataOutputStream out = fs.create(p, true)) {
            out.write(data);
        }
    }

    /** The last {@code n} bytes of p as parquet-mr reads a footer: the 8-byte end (length
     *  and magic) by single bytes, then the rest just below it in one readFully. */
    private static byte[] readTail(FileSystem fs, Path p, int n) throws IOException {
        try (FSDataInputStream in = fs.open(p)) {
            long len = fs.getFileStatus(p).getLen();
            byte[] got = new byte[n];
            in.seek(len - 8);
            for (int i = n - 8; i < n; i++) {
                got[i] = (byte) in.read();
            }
            in.readFully(len - n, got, 0, n - 8);
            return got;
        }
    }

    private static byte[] tail(byte[] data, int n) {
        return Arrays.copyOfRange(data, data.length - n, data.length);
    }

    private static long counter(FSDataInputStream in, String name) {
        return IOStatisticsSupport.retrieveIOStatistics(in).counters().get(name);
    }

    @Test
    void twoStreamsReadingTheLastNineMegabytesMoveThemOverTheLinkOnce() throws Exception {
        byte[] data = FsTestSupport.data(12 * MB, 91);
        int footer = 9 * MB;
        Path p = new Path("/tail/big");
        try (FileSystem fs = FsTestSupport.newFs("tail1", FsTestSupport.embeddedConf())) {
            write(fs, p, data);
            long cost = linkBytes(fs) - linkBytes(fs);   // a snapshot's own command
            long before = linkBytes(fs);
            assertThat(readTail(fs, p, footer)).isEqualTo(tail(data, footer));
            long first = linkBytes(fs) - before - cost;
            before = linkBytes(fs);
            try (FSDataInputStream in = fs.open(p)) {
                byte[] got = new byte[footer];
                in.readFully(data.length - footer, got);
                assertThat(got).isEqualTo(tail(data, footer));
                assertThat(counter(in, StreamStatisticNames.STREAM_READ_TOTAL_BYTES)).isZero();
                assertThat(counter(in, SmartSsdInputStream.TAIL_CACHE_BYTES)).isEqualTo(footer);
                assertThat(counter(in, SmartSsdInputStream.TAIL_CACHE_HITS)).isPositive();
            }
            long second = linkBytes(fs) - before - cost;
            assertThat(first).as("the first stream fetches the tail").isBetween(
                    (long) footer, (long) footer + 64 * 1024);
            assertThat(second).as("the second stream: a LOOKUP and a STAT, no data")
                    .isLessThan(16 * 1024);
            assertThat(((SmartSsdFileSystem) fs).getIOStatistics().counters()
                    .get(SmartSsdInputStream.TAIL_CACHE_BYTES)).isEqualTo(footer);
        }
    }

    /** Spark's tasks open the file at once: one fetches the footer, the others wait for it. */
    @Test
    void fourStreamsAtOnceMoveTheTailOverTheLinkOnce() throws Exception {
        byte[] data = FsTestSupport.data(6 * MB, 92);
        int footer = 4 * MB;
        Path p = new Path("/tail/together");
        int tasks = 4;
        ExecutorService pool = Executors.newFixedThreadPool(tasks);
        try (FileSystem fs = FsTestSupport.newFs("tail7", FsTestSupport.embeddedConf())) {
            write(fs, p, data);
            long cost = linkBytes(fs) - linkBytes(fs);
            long before = linkBytes(fs);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<byte[]>> got = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                got.add(pool.submit(() -> {
                    start.await();
                    return readTail(fs, p, footer);
                }));
            }
            start.countDown();
            for (Future<byte[]> f : got) {
                assertThat(f.get(60, TimeUnit.SECONDS)).as("a task's footer")
                        .isEqualTo(tail(data, footer));
            }
            assertThat(linkBytes(fs) - before - cost).as("link bytes of %d tasks", tasks)
                    .isBetween((long) footer, (long) footer + 64 * 1024);
        } finally {
            pool.shutdownNow();
        }
    }

    /** A file read through from its start (a text scan's split) is not the cache's: each
     *  pass is the drive's, as the host's way of Kang's benchmarks counts it. */
    @Test
    void aPassFromTheStartIsReadFromTheDriveEachTime() throws Exception {
        byte[] data = FsTestSupport.data(MB / 2 + 1000, 93);
        Path p = new Path("/tail/pass");
        try (FileSystem fs = FsTestSupport.newFs("tail8", FsTestSupport.embeddedConf())) {
            write(fs, p, data);
            for (int round = 0; round < 2; round++) {
                long before = linkBytes(fs);
                try (FSDataInputStream in = fs.open(p)) {
                    assertThat(in.readAllBytes()).isEqualTo(data);
                }
                assertThat(linkBytes(fs) - before).as("round %d", round)
                        .isGreaterThanOrEqualTo(data.length);
            }
            assertThat(((SmartSsdFileSystem) fs).tailCache().heldBytes()).isZero();
        }
    }

    @Test
    void everyChangeThroughTheFileSystemIsReadBack() throws Exception {
        int n = 2 * MB;
        Path p = new Path("/tail/changes");
        try (FileSystem fs = FsTestSupport.newFs("tail2", FsTestSupport.embeddedConf())) {
            byte[] a = FsTestSupport.data(5 * MB, 1);
            write(fs, p, a);
            assertThat(readTail(fs, p, n)).isEqualTo(tail(a, n));

            byte[] b = FsTestSupport.data(5 * MB, 2);   // overwrite, same length
            write(fs, p, b);
            assertThat(readTail(fs, p, n)).as("after overwrite").isEqualTo(tail(b, n));

            byte[] more = FsTestSupport.data(MB / 2, 3);
            try (FSDataOutputStream out = fs.append(p)) {
                out.write(more);
            }
            byte[] ab = Arrays.copyOf(b, b.length + more.length);
            System.arraycopy(more, 0, ab, b.length, more.length);
            assertThat(readTail(fs, p, n)).as("after append").isEqualTo(tail(ab, n));

            byte[] c = FsTestSupport.data(ab.length, 4);   // delete and recreate
            assertThat(fs.delete(p, false)).isTrue();
            write(fs, p, c);
            assertThat(readTail(fs, p, n)).as("after delete and create").isEqualTo(tail(c, n));

            // truncate to nothing, then append as many other bytes: same object, same length
            byte[] d = FsTestSupport.data(c.length, 5);
            assertThat(fs.truncate(p, 0)).isTrue();
            try (FSDataOutputStream out = fs.append(p)) {
                out.write(d);
            }
            assertThat(readTail(fs, p, n)).as("after truncate and append").isEqualTo(tail(d, n));

            Path q = new Path("/tail/renamed");   // rename another file over its name
            byte[] e = FsTestSupport.data(c.length, 6);
            write(fs, q, e);
            assertThat(readTail(fs, q, n)).isEqualTo(tail(e, n));
            assertThat(fs.delete(p, false)).isTrue();
            assertThat(fs.rename(q, p)).isTrue();
            assertThat(readTail(fs, p, n)).as("after rename").isEqualTo(tail(e, n));
        }
    }

    /**
     * Another instance (another process's view) rewrites the file in place with as many
     * bytes and sets its mtime back: same object, length and mtime; only the drive's count
     * of pages written to it tells the versions apart.
     */
    @Test
    void aRewriteByAnotherInstanceIsNotServedStale() throws Exception {
        int n = 3 * MB;
        Path p = new Path("/tail/shared");
        Configuration conf = FsTestSupport.embeddedConf();
        try (FileSystem reader = FsTestSupport.newFs("tail3", conf);
             FileSystem writer = FsTestSupport.newFs("tail3", conf)) {
            byte[] a = FsTestSupport.data(4 * MB, 7);
            write(writer, p, a);
            assertThat(readTail(reader, p, n)).isEqualTo(tail(a, n));
            SmartSsdDevice dev = ((SmartSsdFileSystem) writer).device();
            ObjectStat was = dev.lookup("/tail/shared");

            byte[] b = FsTestSupport.data(a.length, 8);
            assertThat(writer.truncate(p, 0)).isTrue();
            try (FSDataOutputStream out = writer.append(p)) {
                out.write(b);
            }
            dev.setTimes(was.oid(), was.mtimeNs(), was.atimeNs());
            ObjectStat now = dev.lookup("/tail/shared");
            assertThat(now.oid()).isEqualTo(was.oid());
            assertThat(now.size()).isEqualTo(was.size());
            assertThat(now.mtimeNs()).isEqualTo(was.mtimeNs());
            assertThat(readTail(reader, p, n)).as("rewritten in place").isEqualTo(tail(b, n));

            byte[] more = FsTestSupport.data(1000, 9);   // and appended to
            try (FSDataOutputStream out = writer.append(p)) {
                out.write(more);
            }
            byte[] bm = Arrays.copyOf(b, b.length + more.length);
            System.arraycopy(more, 0, bm, b.length, more.length);
            assertThat(readTail(reader, p, n)).as("appended").isEqualTo(tail(bm, n));
        }
    }

    @Test
    void theLeastRecentlyUsedTailGoesFirst() throws Exception {
        Configuration conf = FsTestSupport.embeddedConf();
        conf.setLong(SmartSsdConstants.TAIL_CACHE_BYTES, MB);
        conf.setLong(SmartSsdConstants.TAIL_CACHE_CAPACITY, 2 * MB + MB / 2);
        byte[][] data = new byte[3][];
        try (FileSystem fs = FsTestSupport.newFs("tail4", conf)) {
            for (int i = 0; i < 3; i++) {
                data[i] = FsTestSupport.data(3 * MB, 20 + i);
                write(fs, new Path("/lru/f" + i), data[i]);
            }
            long cost = linkBytes(fs) - linkBytes(fs);
            for (int i = 0; i < 3; i++) {
                assertThat(readTail(fs, new Path("/lru/f" + i), MB)).isEqualTo(tail(data[i], MB));
            }
            var cache = ((SmartSsdFileSystem) fs).tailCache();
            assertThat(cache.heldBytes()).isEqualTo(2L * MB);
            assertThat(cache.size()).isEqualTo(2);
            // f2 and f1 are held, f0 went first
            long before = linkBytes(fs);
            assertThat(readTail(fs, new Path("/lru/f2"), MB)).isEqualTo(tail(data[2], MB));
            assertThat(readTail(fs, new Path("/lru/f1"), MB)).isEqualTo(tail(data[1], MB));
            assertThat(linkBytes(fs) - before - cost).isLessThan(32 * 1024);
            before = linkBytes(fs);
            assertThat(readTail(fs, new Path("/lru/f0"), MB)).isEqualTo(tail(data[0], MB));
            assertThat(linkBytes(fs) - before - cost).isGreaterThanOrEqualTo(MB);
            assertThat(cache.heldBytes()).isEqualTo(2L * MB);
            // a read beyond the last 1 MiB is not kept
            try (FSDataInputStream in = fs.open(new Path("/lru/f0"))) {
                byte[] got = new byte[MB + 1];
                in.readFully(data[0].length - got.length, got);
                assertThat(got).isEqualTo(tail(data[0], got.length));
            }
            assertThat(cache.heldBytes()).isEqualTo(2L * MB);
        }
    }

    /** A measurement from a cold cache in a JVM that read the file before, as the Parquet
     *  benchmark's ways and queries each are. */
    @Test
    void afterDropTailCacheTheNextReaderFetchesTheTailFromTheDrive() throws Exception {
        byte[] data = FsTestSupport.data(4 * MB, 94);
        int footer = 2 * MB;
        Path p = new Path("/tail/dropped");
        try (FileSystem fs = FsTestSupport.newFs("tail9", FsTestSupport.embeddedConf())) {
            SmartSsdFileSystem sfs = (SmartSsdFileSystem) fs;
            write(fs, p, data);
            long cost = linkBytes(fs) - linkBytes(fs);
            try (FSDataInputStream open = fs.open(p)) {
                assertThat(readTail(fs, p, footer)).isEqualTo(tail(data, footer));
                long before = linkBytes(fs);
                assertThat(readTail(fs, p, footer)).isEqualTo(tail(data, footer));
                assertThat(linkBytes(fs) - before - cost).as("warm").isLessThan(16 * 1024);

                assertThat(sfs.dropTailCache()).as("bytes held").isEqualTo(footer);
                assertThat(sfs.tailCache().heldBytes()).isZero();
                assertThat(sfs.tailCache().size()).isZero();
                before = linkBytes(fs);
                byte[] got = new byte[footer];
                open.readFully(data.length - footer, got);
                assertThat(got).as("a stream opened before the drop")
                        .isEqualTo(tail(data, footer));
                assertThat(linkBytes(fs) - before - cost).as("after the drop")
                        .isBetween((long) footer, (long) footer + 64 * 1024);
                before = linkBytes(fs);
                assertThat(readTail(fs, p, footer)).isEqualTo(tail(data, footer));
                assertThat(linkBytes(fs) - before - cost).as("warm again")
                        .isLessThan(16 * 1024);
            }
        }
    }

    @Test
    void aTotalBelowThePerFileSizeIsRefusedNamingBothKeys() {
        Configuration conf = FsTestSupport.embeddedConf();
        conf.setLong(SmartSsdConstants.TAIL_CACHE_BYTES, 4 * MB);
        conf.setLong(SmartSsdConstants.TAIL_CACHE_CAPACITY, MB);
        assertThatThrownBy(() -> FsTestSupport.newFs("tail5", conf).close())
                .hasMessageContaining(SmartSsdConstants.TAIL_CACHE_BYTES)
                .hasMessageContaining(SmartSsdConstants.TAIL_CACHE_CAPACITY);
    }

    @Test
    void zeroTurnsItOff() throws Exception {
        Configuration conf = FsTestSupport.embeddedConf();
        conf.setLong(SmartSsdConstants.TAIL_CACHE_BYTES, 0);
        byte[] data = FsTestSupport.data(2 * MB, 30);
        Path p = new Path("/tail/off");
        try (FileSystem fs = FsTestSupport.newFs("tail6", conf)) {
            write(fs, p, data);
            assertThat(readTail(fs, p, MB)).isEqualTo(tail(data, MB));
            long before = linkBytes(fs);
            assertThat(readTail(fs, p, MB)).isEqualTo(tail(data, MB));
            assertThat(linkBytes(fs) - before).isGreaterThanOrEqualTo(MB);
            assertThat(((SmartSsdFileSystem) fs).tailCache().heldBytes()).isZero();
        }
    }
}
