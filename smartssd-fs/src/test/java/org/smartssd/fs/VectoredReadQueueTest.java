package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.EmulatedFormat;
import org.smartssd.device.ObjectType;
import org.smartssd.device.SmartSsdDevice;

/**
 * Vectored reads go through one submission queue: {@link SmartSsdDevice#readRanges} returns
 * the bytes written at every depth, the drive overlaps the queued reads in modelled time
 * (depth 8 takes under half of depth 1 on a 16-channel drive, and the same submissions take
 * the same modelled time twice), and {@code readVectored} of {@code smartssd://} returns
 * every range's bytes.
 */
class VectoredReadQueueTest {
    private static final int FILE = 8 << 20;
    private static final int PAGE = 8192;
    private static final int RANGES = 48;

    @TempDir
    Path dir;

    @Test
    void queuedRangesOverlapInModelledTimeAndReturnTheFilesBytes() throws Exception {
        Path img = dir.resolve("v.img");
        EmulatedFormat.of(null, 256L << 20, 0).withBuffer("none", 0, 0).format(img);
        byte[] want = FsTestSupport.data(FILE, 11);
        // distinct page-aligned 8 KiB ranges, none the page after the one before (no
        // read-ahead)
        Random r = new Random(5);
        long[] offsets = new long[RANGES];
        int[] lens = new int[RANGES];
        java.util.Set<Long> taken = new java.util.HashSet<>();
        for (int i = 0; i < RANGES; i++) {
            do {
                offsets[i] = (long) r.nextInt(FILE / PAGE) * PAGE;
            } while (taken.contains(offsets[i])
                    || (i > 0 && offsets[i] == offsets[i - 1] + PAGE));
            taken.add(offsets[i]);
            lens[i] = PAGE;
        }
        String uri = "emu:" + img + "?background=manual";
        long[] modelled = new long[3];
        try (SmartSsdDevice dev = SmartSsdDevice.open(uri)) {
            long oid = dev.create("/v/data", ObjectType.FILE, SmartSsdDevice.CreateOption.PARENTS);
            ByteBuffer src = ByteBuffer.allocateDirect(FILE);
            src.put(want).flip();
            dev.write(oid, 0, src, false);
            dev.flush();
            readAll(dev, oid, offsets, lens, want, 1);   // the object store's metadata in DRAM
            int[] depths = {1, 8, 8};
            for (int k = 0; k < depths.length; k++) {
                long t0 = dev.modelCounters().orElseThrow().nowNs();
                readAll(dev, oid, offsets, lens, want, depths[k]);
                modelled[k] = dev.modelCounters().orElseThrow().nowNs() - t0;
            }
            ByteBuffer small = ByteBuffer.allocateDirect(PAGE);
            assertThatThrownBy(() -> dev.readRanges(oid, offsets, lens, small, 8))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("direct");
            assertThatThrownBy(() -> dev.readRanges(oid, new long[] {0}, new int[] {1}, small, 33))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("queue depth 33");
        }
        assertThat(modelled[2]).as("the same submissions, the same modelled time")
                .isEqualTo(modelled[1]);
        assertThat(modelled[1] * 2).as("depth 8 (%d ns) against depth 1 (%d ns)", modelled[1],
                modelled[0]).isLessThan(modelled[0]);

        Configuration conf = new Configuration();
        conf.set("smartssd.device.v.uri", uri);
        try (FileSystem fs = FileSystem.newInstance(URI.create("smartssd://v/"), conf);
             FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path("/v/data"))) {
            List<FileRange> ranges = new ArrayList<>();
            for (int i = 0; i < RANGES; i++) {
                // lengths that are no multiple of the page, one range up to the file's end
                int len = i == 0 ? 1000 : PAGE - 2 * i;
                long at = i == 0 ? FILE - len : offsets[i] + i;
                ranges.add(FileRange.createFileRange(at, len));
            }
            in.readVectored(ranges, ByteBuffer::allocate);
            for (FileRange fr : ranges) {
                ByteBuffer b = fr.getData().get(2, TimeUnit.MINUTES);
                byte[] got = new byte[fr.getLength()];
                b.get(got);
                int at = (int) fr.getOffset();
                assertThat(got).as("range at %d", at)
                        .isEqualTo(Arrays.copyOfRange(want, at, at + fr.getLength()));
            }
        }
    }

    private static void readAll(SmartSsdDevice dev, long oid, long[] offsets, int[] lens,
                                byte[] want, int depth) throws Exception {
        ByteBuffer dst = ByteBuffer.allocateDirect(RANGES * PAGE);
        int[] counts = dev.readRanges(oid, offsets, lens, dst, depth);
        assertThat(dst.position()).isEqualTo(RANGES * PAGE);
        for (int i = 0; i < RANGES; i++) {
            assertThat(counts[i]).isEqualTo(PAGE);
            byte[] got = new byte[PAGE];
            dst.position(i * PAGE);
            dst.get(got);
            int at = (int) offsets[i];
            assertThat(got).as("depth %d, range %d", depth, i)
                    .isEqualTo(Arrays.copyOfRange(want, at, at + PAGE));
        }
    }
}
