package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An open-channel drive through the client (tiny profile, 128 MiB): a chunk written by
 * vector I/O reads back and a reset erases it, counting wear; the host block target
 * buffers a write short of a unit until a flush pads the unit and writes it, and a trimmed
 * block reads as zeros.
 */
class OpenChannelDriveTest {
    @TempDir
    Path dir;
    Path image;

    @BeforeEach
    void format() throws Exception {
        image = dir.resolve("oc.img");
        EmulatedFormat.of(TestDrives.tinyProfile(dir).toString(), 128L << 20, 0)
                .withInterface(DriveInterface.OPEN_CHANNEL).format(image);
    }

    @Test
    void aChunkWrittenByVectorIoReadsBackAndAResetErasesIt() throws Exception {
        try (SmartSsdDevice d = SmartSsdDevice.open("emu:" + image)) {
            ChunkedDrive oc = d.chunked();
            ChunkGeometry g = oc.geometry();
            assertThat(g.driveInterface()).isEqualTo(DriveInterface.OPEN_CHANNEL);
            int chunk = 0;
            while (oc.report(g.index(0, 0, chunk), 1).get(0).chunkState() != ChunkState.FREE) {
                chunk++;
            }
            long at = g.index(0, 0, chunk);
            ChunkInfo before = oc.report(at, 1).get(0);
            int n = (int) g.wsMin();
            List<PhysicalAddress> unit = new ArrayList<>();
            for (int s = 0; s < n; s++) {
                unit.add(new PhysicalAddress(0, 0, chunk, s));
            }
            byte[] data = new byte[n * ChunkedDrive.SECTOR];
            new Random(5).nextBytes(data);
            oc.vectorWrite(unit, ByteBuffer.allocateDirect(data.length).put(data).flip());
            ByteBuffer back = ByteBuffer.allocateDirect(data.length);
            oc.vectorRead(unit, back);
            byte[] read = new byte[data.length];
            back.get(0, read);
            assertThat(read).isEqualTo(data);
            assertThat(oc.report(at, 1).get(0).written()).isEqualTo(n);

            oc.reset(List.of(new PhysicalAddress(0, 0, chunk, 0)));
            ChunkInfo after = oc.report(at, 1).get(0);
            assertThat(after.chunkState()).isEqualTo(ChunkState.FREE);
            assertThat(after.written()).isZero();
            assertThat(after.wear()).isEqualTo(before.wear() + 1);
            assertThatThrownBy(() -> oc.vectorRead(unit.subList(0, 1),
                    ByteBuffer.allocateDirect(ChunkedDrive.SECTOR)))
                    .isInstanceOf(SmartSsdException.class)
                    .satisfies(e -> assertThat(((SmartSsdException) e).reason())
                            .isEqualTo(Reason.READ_UNWRITTEN));
        }
    }

    @Test
    void aShortUnitStaysBufferedUntilAFlushAndATrimmedBlockReadsAsZeros() throws Exception {
        byte[] data = new byte[BlockTarget.BLOCK];
        new Random(6).nextBytes(data);
        try (SmartSsdDevice d = SmartSsdDevice.open("emu:" + image);
                BlockTarget t = d.blockTarget(0, 0)) {
            BlockTargetStats opened = t.stats();
            assertThat(opened.unitBlocks()).isGreaterThan(1);
            t.write(7, ByteBuffer.allocateDirect(data.length).put(data).flip(), false);
            BlockTargetStats written = t.stats();
            assertThat(written.bufferedBlocks()).isEqualTo(1);
            assertThat(written.flashBlocksWritten()).isEqualTo(opened.flashBlocksWritten());

            t.flush();
            BlockTargetStats flushed = t.stats();
            assertThat(flushed.bufferedBlocks()).isZero();
            assertThat(flushed.padBlocks() - written.padBlocks())
                    .isEqualTo(opened.unitBlocks() - 1);
            assertThat(flushed.flashBlocksWritten() - written.flashBlocksWritten())
                    .isEqualTo(opened.unitBlocks());
            ByteBuffer back = ByteBuffer.allocateDirect(data.length);
            t.read(7, 1, back);
            byte[] read = new byte[data.length];
            back.get(0, read);
            assertThat(read).isEqualTo(data);

            t.trim(7, 1);
            assertThat(t.stats().blocksTrimmed()).isEqualTo(flushed.blocksTrimmed() + 1);
            t.read(7, 1, back.clear());
            back.get(0, read);
            assertThat(read).isEqualTo(new byte[data.length]);
        }
    }
}
