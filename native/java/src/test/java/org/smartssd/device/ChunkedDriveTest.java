package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A zoned drive through the Java client: append returns where the data went, finish fills
 * the zone, the state machine's refusals come back as SmartSsdException with their reason,
 * and a reset counts wear. Tiny profile of 128 MiB: zones of 16 x 128 sectors.
 */
class ChunkedDriveTest {
    @TempDir
    Path dir;

    @Test
    void zonesAppendFinishRefuseAndReset() throws Exception {
        Path image = dir.resolve("z.img");
        SmartSsdDevice.formatEmulated(image, TestDrives.tinyProfile(dir).toString(),
                128L << 20, 0, 0, null, 0, 0, false, DriveInterface.ZONED);
        try (SmartSsdDevice d = SmartSsdDevice.open("emu:" + image)) {
            ChunkedDrive z = d.chunked();
            ChunkGeometry g = z.geometry();
            assertThat(g.driveInterface()).isEqualTo(DriveInterface.ZONED);
            assertThat(g.chunkSectors()).isEqualTo(2048);
            List<ChunkInfo> zones = z.report(0, (int) g.totalChunks());
            assertThat(zones).hasSize((int) g.totalChunks());
            ChunkInfo free = zones.stream().filter(c -> c.chunkState() == ChunkState.FREE)
                    .findFirst().orElseThrow();
            long slba = free.slba();
            ByteBuffer unit = ByteBuffer.allocateDirect((int) g.wsMin() * ChunkedDrive.SECTOR);
            assertThat(z.append(slba, unit.duplicate())).isEqualTo(slba);
            assertThat(z.append(slba, unit.duplicate())).isEqualTo(slba + g.wsMin());
            z.finishZone(slba);
            ChunkInfo full = z.report(slba / g.zoneSectors(), 1).get(0);
            assertThat(full.chunkState()).isEqualTo(ChunkState.FULL);
            assertThat(full.wp()).isEqualTo(slba + g.chunkSectors());
            assertThatThrownBy(() -> z.append(slba, unit.duplicate()))
                    .isInstanceOf(SmartSsdException.class)
                    .satisfies(e -> assertThat(((SmartSsdException) e).reason())
                            .isEqualTo(Reason.CHUNK_FULL));
            assertThatThrownBy(() -> z.openZone(slba)).isInstanceOf(SmartSsdException.class)
                    .satisfies(e -> assertThat(((SmartSsdException) e).reason())
                            .isEqualTo(Reason.ZONE_STATE));
            z.resetZone(slba);
            ChunkInfo reset = z.report(slba / g.zoneSectors(), 1).get(0);
            assertThat(reset.chunkState()).isEqualTo(ChunkState.FREE);
            assertThat(reset.wp()).isEqualTo(slba);
            assertThat(reset.wear()).isEqualTo(2);
            assertThatThrownBy(() -> z.vectorRead(List.of(new PhysicalAddress(0, 0, 0, 0)),
                    ByteBuffer.allocateDirect(512))).isInstanceOf(SmartSsdException.class)
                    .hasMessageContaining("zoned");
        }
    }
}
