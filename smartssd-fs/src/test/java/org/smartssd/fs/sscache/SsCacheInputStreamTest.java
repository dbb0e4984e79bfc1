package org.smartssd.fs.sscache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.smartssd.fs.sscache.SsCacheTestSupport.counter;

import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.StreamCapabilities;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.SmartSsdDevice;

/**
 * {@code sscache://} streams read into ByteBuffers as {@code smartssd://} streams do
 * (Hadoop's {@code ByteBufferReadable} and {@code ByteBufferPositionedReadable}), and their
 * positioned and vectored reads leave the sequential reads alone: the position, the window
 * and the read-ahead. Every byte is checked against the file written to the backing store;
 * drive commands are the drive's own counters.
 */
class SsCacheInputStreamTest {
    /** Not a whole number of cache blocks, so the last block is partial. */
    private static final int FILE = (5 << 20) + 12_345;
    private static final byte[] CONTENT = SsCacheTestSupport.data(FILE, 17);
    private static final org.apache.hadoop.fs.Path F = new org.apache.hadoop.fs.Path("/d/f");

    private static SsCacheFileSystem open(String drive, Path dir) throws Exception {
        Files.createDirectories(dir.resolve("d"));
        Files.write(dir.resolve("d/f"), CONTENT);
        return SsCacheTestSupport.open(drive,
                SsCacheTestSupport.conf(drive, dir, SsCacheConstants.Mode.WRITE_THROUGH));
    }

    private static byte[] content(long from, int len) {
        return Arrays.copyOfRange(CONTENT, (int) from, (int) from + len);
    }

    private static byte[] drain(ByteBuffer b, int from, int len) {
        byte[] got = new byte[len];
        b.duplicate().position(from).get(got);
        return got;
    }

    /**
     * A whole pass with buffers of odd sizes that do not start at 0 (position 7, limit 7 +
     * size), the last one larger than what is left: each read moves the buffer's position
     * by what it returns and leaves its limit; at the end -1, and 0 for a full buffer.
     */
    private static void readsThePassInto(IntFunction<ByteBuffer> allocate, SsCacheFileSystem fs)
            throws Exception {
        int[] sizes = {1, 448, 5_000, 70_001, 1 << 20, 3 << 20};
        try (FSDataInputStream in = fs.open(F)) {
            assertThat(in.hasCapability(StreamCapabilities.READBYTEBUFFER)).isTrue();
            assertThat(in.hasCapability(StreamCapabilities.PREADBYTEBUFFER)).isTrue();
            long at = 0;
            for (int i = 0; at < FILE; i++) {
                int size = sizes[i % sizes.length];
                ByteBuffer b = allocate.apply(7 + size + 5);
                b.position(7).limit(7 + size);
                int n = in.read(b);
                assertThat(n).as("read of %d at %d", size, at).isPositive()
                        .isLessThanOrEqualTo((int) Math.min(size, FILE - at));
                assertThat(b.position()).as("buffer position after %d bytes", n).isEqualTo(7 + n);
                assertThat(b.limit()).as("buffer limit").isEqualTo(7 + size);
                assertThat(drain(b, 7, n)).as("bytes at %d", at).isEqualTo(content(at, n));
                at += n;
                assertThat(in.getPos()).isEqualTo(at);
            }
            ByteBuffer full = allocate.apply(16);
            full.position(16);
            assertThat(in.read(full)).as("a buffer with no room, at EOF").isZero();
            ByteBuffer b = allocate.apply(100);
            assertThat(in.read(b)).as("a read at EOF").isEqualTo(-1);
            assertThat(b.position()).isZero();
            assertThat(b.limit()).isEqualTo(100);
        }
    }

    @Test
    void readsIntoHeapBuffers(@TempDir Path dir) throws Exception {
        try (SsCacheFileSystem fs = open("bb1", dir)) {
            readsThePassInto(ByteBuffer::allocate, fs);     // cold: from the store
            readsThePassInto(ByteBuffer::allocate, fs);     // warm: from the drive
        }
    }

    @Test
    void readsIntoDirectBuffers(@TempDir Path dir) throws Exception {
        try (SsCacheFileSystem fs = open("bb2", dir)) {
            readsThePassInto(ByteBuffer::allocateDirect, fs);
            readsThePassInto(ByteBuffer::allocateDirect, fs);
        }
    }

    @Test
    void aBufferWithNoRoomReadsNothing(@TempDir Path dir) throws Exception {
        try (SsCacheFileSystem fs = open("bb3", dir);
             FSDataInputStream in = fs.open(F)) {
            in.seek(1000);
            ByteBuffer b = ByteBuffer.allocateDirect(10);
            b.position(10);
            assertThat(in.read(b)).isZero();
            assertThat(in.getPos()).isEqualTo(1000);
            assertThat(in.read(5, ByteBuffer.allocate(0))).isZero();
        }
    }

    /** Positioned ByteBuffer reads, heap and direct, into the middle of the buffer. */
    @Test
    void positionedReadsIntoBuffers(@TempDir Path dir) throws Exception {
        try (SsCacheFileSystem fs = open("bb4", dir);
             FSDataInputStream in = fs.open(F)) {
            for (IntFunction<ByteBuffer> allocate
                    : List.<IntFunction<ByteBuffer>>of(ByteBuffer::allocate,
                    ByteBuffer::allocateDirect)) {
                long[] offsets = {0, 4095, 1 << 20, FILE - 70_000};
                for (long at : offsets) {
                    ByteBuffer b = allocate.apply(3 + 65_536);
                    b.position(3);
                    in.readFully(at, b);
                    assertThat(b.position()).isEqualTo(b.limit());
                    assertThat(drain(b, 3, 65_536)).as("readFully at %d", at)
                            .isEqualTo(content(at, 65_536));

                    ByteBuffer p = allocate.apply(2 << 20);
                    int n = in.read(at, p);
                    assertThat(n).isPositive().isEqualTo(p.position());
                    assertThat(drain(p, 0, n)).as("read at %d", at).isEqualTo(content(at, n));
                }
                ByteBuffer tail = allocate.apply(100);
                assertThat(in.read(FILE - 10, tail)).isEqualTo(10);
                assertThat(drain(tail, 0, 10)).isEqualTo(content(FILE - 10, 10));
                assertThat(in.read(FILE, allocate.apply(100))).as("a read at EOF").isEqualTo(-1);
                ByteBuffer past = allocate.apply(100);
                assertThatThrownBy(() -> in.readFully(FILE - 10, past))
                        .isInstanceOf(EOFException.class);
                assertThat(in.getPos()).as("positioned reads leave the position").isZero();
            }
        }
    }

    /** What one sequential pass of 64 KiB reads returned and the commands each took. */
    private record Pass(List<Integer> lengths, List<Long> commands) {
    }

    private static long commands(SmartSsdDevice dev) throws Exception {
        return dev.modelCounters().orElseThrow().hostCommands();
    }

    /**
     * A pass of 64 KiB reads; at {@code interruptAt} (bytes read so far), {@code aside}
     * runs (a positioned or vectored read elsewhere in the file). The commands counted are
     * the sequential reads' own.
     */
    private static Pass pass(SsCacheFileSystem fs, long interruptAt, Aside aside)
            throws Exception {
        SmartSsdDevice dev = fs.device();
        long cost = commands(dev) - commands(dev);
        List<Integer> lengths = new ArrayList<>();
        List<Long> cmds = new ArrayList<>();
        try (FSDataInputStream in = fs.open(F)) {
            byte[] chunk = new byte[64 << 10];
            long at = 0;
            boolean asideDone = aside == null;
            while (true) {
                if (!asideDone && at >= interruptAt) {
                    aside.run(in);
                    asideDone = true;
                    assertThat(in.getPos()).as("position after the positioned read")
                            .isEqualTo(at);
                }
                long before = commands(dev);
                int n = in.read(chunk);
                cmds.add(commands(dev) - before - cost);
                lengths.add(n);
                if (n < 0) {
                    break;
                }
                assertThat(Arrays.copyOf(chunk, n)).as("bytes at %d", at)
                        .isEqualTo(content(at, n));
                at += n;
            }
            assertThat(at).isEqualTo(FILE);
            assertThat(asideDone).isTrue();
        }
        return new Pass(lengths, cmds);
    }

    @FunctionalInterface
    private interface Aside {
        void run(FSDataInputStream in) throws Exception;
    }

    /**
     * Warm, a positioned read far from the pass (and one inside its window) and a vectored
     * read, halfway through it, change neither what the pass's reads return nor the drive
     * commands they take: the reference is the same pass alone.
     */
    @Test
    void positionedAndVectoredReadsLeaveTheSequentialPassAlone(@TempDir Path dir)
            throws Exception {
        try (SsCacheFileSystem fs = open("bb5", dir)) {
            SsCacheTestSupport.read(fs, F);   // warm; close waits for the fills
            long backing = counter(fs.getIOStatistics(), CacheStatistics.BYTES_FROM_BACKING);
            Pass alone = pass(fs, 0, null);
            long middle = FILE / 2 + 1000;
            Pass withPread = pass(fs, middle, in -> {
                byte[] b = new byte[10_000];
                in.readFully(200_000, b, 0, b.length);
                assertThat(b).isEqualTo(content(200_000, b.length));
                assertThat(in.read(FILE - 3_000, b, 0, b.length)).isEqualTo(3_000);
                assertThat(Arrays.copyOf(b, 3_000)).isEqualTo(content(FILE - 3_000, 3_000));
                in.readFully(in.getPos() + 100, b, 0, 100);
                assertThat(Arrays.copyOf(b, 100)).isEqualTo(content(in.getPos() + 100, 100));
            });
            Pass withVectored = pass(fs, middle, in -> {
                FileRange r1 = FileRange.createFileRange(100_000, 5_000);
                FileRange r2 = FileRange.createFileRange(3_000_000, 70_000);
                in.readVectored(List.of(r1, r2), ByteBuffer::allocate);
                for (FileRange r : List.of(r1, r2)) {
                    ByteBuffer got = r.getData().get();
                    assertThat(drain(got, got.position(), r.getLength()))
                            .isEqualTo(content(r.getOffset(), r.getLength()));
                }
            });
            assertThat(withPread).as("the pass with positioned reads in it").isEqualTo(alone);
            assertThat(withVectored).as("the pass with a vectored read in it").isEqualTo(alone);
            assertThat(counter(fs.getIOStatistics(), CacheStatistics.BYTES_FROM_BACKING))
                    .as("warm passes read nothing from the store").isEqualTo(backing);
        }
    }

    /**
     * A positioned read that misses reads the store and fills the cache as a sequential
     * read does: after the stream's close, the same read comes from the drive alone.
     */
    @Test
    void aPositionedReadThatMissesFillsTheCache(@TempDir Path dir) throws Exception {
        try (SsCacheFileSystem fs = open("bb6", dir)) {
            long at = 2_000_003;
            int len = 300_000;
            for (int round = 0; round < 2; round++) {
                long backing = counter(fs.getIOStatistics(), CacheStatistics.BYTES_FROM_BACKING);
                try (FSDataInputStream in = fs.open(F)) {
                    ByteBuffer b = ByteBuffer.allocateDirect(len);
                    in.readFully(at, b);
                    assertThat(drain(b, 0, len)).isEqualTo(content(at, len));
                }
                long fromStore = counter(fs.getIOStatistics(), CacheStatistics.BYTES_FROM_BACKING)
                        - backing;
                if (round == 0) {
                    assertThat(fromStore).as("cold, from the store").isGreaterThanOrEqualTo(len);
                } else {
                    assertThat(fromStore).as("warm, from the store").isZero();
                }
            }
        }
    }

    /**
     * Bytes appended to the backing file after the stream opened (a file still being
     * written) are read from the store into ByteBuffers too, sequentially and positioned,
     * heap and direct.
     */
    @Test
    void bytesPastTheOpenedLengthComeFromTheStore(@TempDir Path dir) throws Exception {
        byte[] more = SsCacheTestSupport.data(3_000, 23);
        byte[] all = Arrays.copyOf(CONTENT, FILE + more.length);
        System.arraycopy(more, 0, all, FILE, more.length);
        try (SsCacheFileSystem fs = open("bb7", dir);
             FSDataInputStream in = fs.open(F)) {
            Files.write(dir.resolve("d/f"), more, java.nio.file.StandardOpenOption.APPEND);
            in.seek(FILE - 100);
            ByteBuffer heap = ByteBuffer.allocate(100);
            in.readFully(heap.array());
            assertThat(heap.array()).isEqualTo(content(FILE - 100, 100));
            ByteBuffer direct = ByteBuffer.allocateDirect(2_000);
            direct.position(500);
            int n = in.read(direct);
            assertThat(n).as("a read past the opened length").isEqualTo(1_500);
            assertThat(drain(direct, 500, n)).isEqualTo(Arrays.copyOfRange(all, FILE, FILE + n));
            ByteBuffer rest = ByteBuffer.allocate(5_000);
            rest.position(1);
            assertThat(in.read(rest)).isEqualTo(1_500);
            assertThat(drain(rest, 1, 1_500))
                    .isEqualTo(Arrays.copyOfRange(all, FILE + 1_500, FILE + 3_000));
            assertThat(in.read(ByteBuffer.allocateDirect(10))).isEqualTo(-1);

            for (ByteBuffer p : List.of(ByteBuffer.allocate(200), ByteBuffer.allocateDirect(200))) {
                in.readFully(FILE + 700, p);
                assertThat(drain(p, 0, 200))
                        .isEqualTo(Arrays.copyOfRange(all, FILE + 700, FILE + 900));
            }
            assertThat(in.getPos()).isEqualTo(FILE + more.length);
        }
    }
}
