package org.smartssd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.cli.CliUsageTest.Run;
import org.smartssd.device.BlockTarget;
import org.smartssd.device.BlockTargetStats;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TestDrives;
import org.smartssd.device.Reason;
import org.smartssd.device.SmartSsdException;

/**
 * smartssd blk read, write, trim and stats, and BlockTarget, on an emulated open-channel
 * drive of the tiny profile (2 channels x 2 ways, 31 chunks of 2048 sectors a PU): 4 PUs,
 * 29 data lines of 1024 blocks, 27 of them for LBAs at 10% over-provisioning.
 */
class CliBlkTest {
    private static final long BLOCKS = 27L * 1024 * 900 / 1000;

    @TempDir
    Path dir;

    private String openChannel() throws Exception {
        String uri = "emu:" + dir.resolve("oc.img");
        Run f = CliUsageTest.run("format", uri, "--profile",
                TestDrives.tinyProfile(dir).toString(), "--capacity", "128M", "--interface",
                "open-channel");
        assertThat(f.code()).as(f.err()).isZero();
        return uri;
    }

    @Test
    void blocksWrittenByTheCliReadBackAndTrimmedOnesReadAsZeros() throws Exception {
        String uri = openChannel();
        byte[] data = new byte[3 * BlockTarget.BLOCK];
        new Random(7).nextBytes(data);
        Path in = Files.write(dir.resolve("in.bin"), data);

        Run w = CliUsageTest.run("blk", "write", uri, "1000", in.toString());
        assertThat(w.code()).as(w.err()).isZero();
        assertThat(w.out()).contains("wrote 3 blocks at 1000");
        Path out = dir.resolve("out.bin");
        Run r = CliUsageTest.run("blk", "read", uri, "1000", "--count", "3", "-o",
                out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Files.readAllBytes(out)).isEqualTo(data);

        Run t = CliUsageTest.run("blk", "trim", uri, "1001", "1");
        assertThat(t.code()).as(t.err()).isZero();
        r = CliUsageTest.run("blk", "read", uri, "1000", "--count", "3", "-o", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        byte[] back = Files.readAllBytes(out);
        assertThat(Arrays.copyOfRange(back, 0, 4096)).isEqualTo(Arrays.copyOfRange(data, 0, 4096));
        assertThat(Arrays.copyOfRange(back, 4096, 8192)).containsOnly(0);
        assertThat(Arrays.copyOfRange(back, 8192, 12288))
                .isEqualTo(Arrays.copyOfRange(data, 8192, 12288));

        Run s = CliUsageTest.run("blk", "stats", uri);
        assertThat(s.code()).as(s.err()).isZero();
        assertThat(s.out()).contains("blocks: " + BLOCKS + " of 4096 bytes")
                .contains("parallel units: 4").contains("lines: 29 of 1024 blocks")
                .contains("valid blocks: 2");
    }

    @Test
    void refusesAFileOfPartBlocksAndBlocksPastTheEnd() throws Exception {
        String uri = openChannel();
        Path in = Files.write(dir.resolve("odd.bin"), new byte[5000]);
        Run w = CliUsageTest.run("blk", "write", uri, "0", in.toString());
        assertThat(w.code()).isNotZero();
        assertThat(w.err()).contains("5000 bytes: not a whole number of 4096-byte blocks");
        Run r = CliUsageTest.run("blk", "read", uri, Long.toString(BLOCKS), "-o",
                dir.resolve("x").toString());
        assertThat(r.code()).isNotZero();
        assertThat(r.err()).contains("past the last");
    }

    @Test
    void theTargetKeepsItsBlocksAcrossCloseAndRefusesAnFtlDrive() throws Exception {
        String uri = openChannel();
        ByteBuffer w = ByteBuffer.allocateDirect(8 * BlockTarget.BLOCK);
        for (int i = 0; i < w.capacity(); i++) {
            w.put(i, (byte) (i * 31 + 5));
        }
        try (SmartSsdDevice d = SmartSsdDevice.open(uri);
                BlockTarget t = d.blockTarget(0, 0)) {
            t.write(42, w.duplicate(), true);
            BlockTargetStats st = t.stats();
            assertThat(st.userBlocksWritten()).isEqualTo(8);
            assertThat(st.bufferedBlocks()).isZero();
            assertThat(st.blocks()).isEqualTo(BLOCKS);
        }
        try (SmartSsdDevice d = SmartSsdDevice.open(uri);
                BlockTarget t = d.blockTarget(0, 0)) {
            ByteBuffer r = ByteBuffer.allocateDirect(8 * BlockTarget.BLOCK);
            t.read(42, 8, r);
            assertThat(r).isEqualTo(w);
        }

        Path ftl = dir.resolve("ftl.img");
        Run f = CliUsageTest.run("format", "emu:" + ftl, "--profile",
                TestDrives.tinyProfile(dir).toString(), "--capacity", "128M");
        assertThat(f.code()).as(f.err()).isZero();
        try (SmartSsdDevice d = SmartSsdDevice.open("emu:" + ftl)) {
            assertThatThrownBy(() -> d.blockTarget(0, 0))
                    .isInstanceOfSatisfying(SmartSsdException.class,
                            e -> assertThat(e.reason()).isEqualTo(Reason.WRONG_INTERFACE))
                    .hasMessageContaining("block target open").hasMessageContaining("formatted ftl");
        }
    }
}
