package org.smartssd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.cli.CliUsageTest.Run;
import org.smartssd.device.Devd;
import org.smartssd.device.ObjectType;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TestDrives;

/**
 * smartssd format overwrites only what loses nothing (issue #35, item 5), and smartssd info
 * --check covers the merge cache's NVRAM (item 2).
 */
class CliFormatTest {
    private static final String NOTES = "meeting notes, not a drive image\n";

    @TempDir
    Path dir;

    private Run format(Path image, String... more) throws IOException {
        String[] args = {"format", "emu:" + image, "--profile",
            TestDrives.tinyProfile(dir).toString(), "--capacity", "128M"};
        String[] all = new String[args.length + more.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return CliUsageTest.run(all);
    }

    @Test
    void aTextFileIsRefusedAndLeftAsItWasUnlessForced() throws Exception {
        Path notes = Files.writeString(dir.resolve("notes.txt"), NOTES);
        Run r = format(notes);
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(r.err()).contains("is not a smartssd image").contains("--force");
        assertThat(Files.readString(notes)).isEqualTo(NOTES);
        Run forced = format(notes, "--force");
        assertThat(forced.code()).as(forced.err()).isZero();
        assertThat(Files.readAllBytes(notes)).startsWith("SSDEMUIM".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void anImageHoldingAnObjectIsRefusedUnlessForced() throws Exception {
        Path img = dir.resolve("d.img");
        Run first = format(img);
        assertThat(first.code()).as(first.err()).isZero();
        Run again = format(img);   // an image holding nothing formats again
        assertThat(again.code()).as(again.err()).isZero();
        try (SmartSsdDevice d = SmartSsdDevice.open("emu:" + img)) {
            long oid = d.create("/kept", ObjectType.FILE);
            byte[] b = NOTES.getBytes(StandardCharsets.UTF_8);
            d.write(oid, 0, b, 0, b.length, true);
        }
        Run r = format(img);
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(r.err()).contains("holds 1 object").contains("--force");
        try (SmartSsdDevice d = SmartSsdDevice.open("emu:" + img)) {
            assertThat(d.lookup("/kept").size()).isEqualTo(NOTES.length());
        }
        Run forced = format(img, "--force");
        assertThat(forced.code()).as(forced.err()).isZero();
        Run ls = CliUsageTest.run("ls", "emu:" + img, "/");
        assertThat(ls.out()).doesNotContain("kept");
    }

    /** An NVRAM corrupted under the running daemon: info --check says so, exit 7. */
    @Test
    void infoCheckReportsACorruptNvram() throws Exception {
        Path img = dir.resolve("nv.img");
        Run f = format(img, "--buffer", "nv-wb");
        assertThat(f.code()).as(f.err()).isZero();
        byte[] data = new byte[700];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 7 + 3);
        }
        try (Devd devd = Devd.start(img, dir.resolve("nv.sock"), Duration.ofSeconds(30))) {
            try (SmartSsdDevice d = SmartSsdDevice.open(devd.uri())) {
                long oid = d.create("/o", ObjectType.FILE);
                d.write(oid, 0, data, 0, data.length, false);
            }
            Run clean = CliUsageTest.run("info", "--check", devd.uri());
            assertThat(clean.code()).as(clean.err()).isZero();
            assertThat(clean.out()).contains("check:            consistent");
            flip(img.resolveSibling("nv.img.nvram"), data);
            Run bad = CliUsageTest.run("info", "--check", devd.uri());
            assertThat(bad.code()).as(bad.out() + bad.err()).isEqualTo(ExitCodes.INCONSISTENT);
            assertThat(bad.out()).contains("INCONSISTENT: the merge cache's NVRAM fails its check")
                    .contains("NVRAM sector");
        }
    }

    /** Flip 20 bytes inside the NVRAM's copy of `data` (its sectors are 64-byte aligned). */
    private static void flip(Path nvram, byte[] data) throws IOException {
        byte[] all = Files.readAllBytes(nvram);
        int at = -1;
        for (int i = 0; i + 64 <= all.length && at < 0; i += 64) {
            boolean match = true;
            for (int j = 0; j < 64 && match; j++) {
                match = all[i + j] == data[j];
            }
            at = match ? i : -1;
        }
        assertThat(at).as("the object's bytes in the NVRAM").isNotNegative();
        ByteBuffer x = ByteBuffer.allocate(20);
        for (int i = 0; i < 20; i++) {
            x.put((byte) ~all[at + 100 + i]);
        }
        x.flip();
        try (FileChannel ch = FileChannel.open(nvram, StandardOpenOption.WRITE)) {
            ch.write(x, at + 100);
        }
    }
}
