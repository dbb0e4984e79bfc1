package org.smartssd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.cli.CliUsageTest.Run;
import org.smartssd.device.ChunkInfo;
import org.smartssd.device.SmartSsdException;
import org.smartssd.device.ChunkState;
import org.smartssd.device.ChunkedDrive;
import org.smartssd.device.Devd;
import org.smartssd.device.PhysicalAddress;
import org.smartssd.device.Reason;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TestDrives;

/**
 * smartssd format --interface, geometry and chunks on an emulated drive of the tiny profile
 * (2 channels x 2 ways, 8 KiB pages, 128 pages a block) of 128 MiB: 32 blocks a die, one
 * row of them the label's, so 31 chunks of 16 x 128 sectors per parallel unit.
 */
class CliChunksTest {
    @TempDir
    Path dir;

    @Test
    void anOpenChannelDriveKeepsItsInterfaceAcrossTheDaemonAndListsItsChunks() throws Exception {
        Path image = dir.resolve("oc.img");
        String uri = "emu:" + image;
        Run f = CliUsageTest.run("format", uri, "--profile",
                TestDrives.tinyProfile(dir).toString(), "--capacity", "128M", "--interface",
                "open-channel");
        assertThat(f.code()).as(f.err()).isZero();
        assertThat(f.out()).contains("open-channel, 2 groups x 2 parallel units x 31 chunks of "
                + "2048 sectors");

        long chunk;
        try (Devd devd = Devd.start(image, dir.resolve("oc.sock"), Duration.ofSeconds(30));
                SmartSsdDevice d = SmartSsdDevice.open(devd.uri())) {
            ChunkedDrive c = d.chunked();
            List<ChunkInfo> unit = c.report(c.geometry().index(1, 0, 0), 31);
            chunk = firstFree(unit);
            List<PhysicalAddress> addrs = new ArrayList<>();
            for (int s = 0; s < 16; s++) {
                addrs.add(new PhysicalAddress(1, 0, (int) chunk, s));
            }
            ByteBuffer data = ByteBuffer.allocateDirect(16 * 512);
            for (int i = 0; i < data.capacity(); i++) {
                data.put(i, (byte) (i * 7));
            }
            c.vectorWrite(addrs, data);
            assertThatThrownBy(() -> c.vectorWrite(addrs, data))
                    .isInstanceOf(SmartSsdException.class)
                    .satisfies(e -> assertThat(((SmartSsdException) e).reason())
                            .isEqualTo(Reason.NOT_WRITE_POINTER));
            ByteBuffer back = ByteBuffer.allocateDirect(16 * 512);
            c.vectorRead(addrs, back);
            assertThat(back).isEqualTo(data);
            assertThatThrownBy(d::fsStat).isInstanceOf(SmartSsdException.class)
                    .hasMessageContaining("open-channel");
        }

        // the daemon gone, the image serves the same interface, chunk and data
        Run g = CliUsageTest.run("geometry", uri);
        assertThat(g.code()).as(g.err()).isZero();
        assertThat(g.out()).contains("interface: open-channel").contains("groups: 2")
                .contains("chunks per parallel unit: 31").contains("sectors per chunk: 2048")
                .contains("minimum write: 16 sectors");
        Run ch = CliUsageTest.run("chunks", uri, "--group", "1", "--pu", "0");
        assertThat(ch.code()).as(ch.err()).isZero();
        String[] lines = ch.out().split("\n");
        assertThat(lines).hasSize(1 + 31);
        assertThat(lines[1 + (int) chunk].trim().split(" +"))
                .startsWith("1", "0", Long.toString(chunk), "OPEN")
                .contains("16");

        Run ls = CliUsageTest.run("ls", uri);
        assertThat(ls.code()).isNotZero();
        assertThat(ls.err()).contains("open-channel");
        Run bad = CliUsageTest.run("chunks", uri, "--group", "2");
        assertThat(bad.code()).isNotZero();
        assertThat(bad.err()).contains("--group 2");
    }

    @Test
    void anFtlDriveHasNoGeometryAndAnUnknownInterfaceIsRefused() throws Exception {
        String uri = "emu:" + dir.resolve("f.img");
        String profile = TestDrives.tinyProfile(dir).toString();
        Run f = CliUsageTest.run("format", uri, "--profile", profile, "--capacity", "128M");
        assertThat(f.code()).as(f.err()).isZero();
        Run g = CliUsageTest.run("geometry", uri);
        assertThat(g.code()).isNotZero();
        assertThat(g.err()).contains("formatted ftl");
        Run bad = CliUsageTest.run("format", "emu:" + dir.resolve("x.img"), "--profile",
                profile, "--capacity", "128M", "--interface", "sideways");
        assertThat(bad.code()).isNotZero();
        assertThat(bad.err()).contains("not ftl, open-channel or zoned");
    }

    private static long firstFree(List<ChunkInfo> chunks) {
        for (int i = 0; i < chunks.size(); i++) {
            if (chunks.get(i).chunkState() == ChunkState.FREE) {
                return i;
            }
        }
        throw new AssertionError("no free chunk in " + chunks);
    }
}
