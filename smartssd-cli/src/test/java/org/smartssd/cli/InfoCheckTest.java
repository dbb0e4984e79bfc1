package org.smartssd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.cli.CliUsageTest.Run;
import org.smartssd.device.DriveCheck;
import org.smartssd.device.ImageDamage;
import org.smartssd.device.ObjectType;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TestDrives;

/**
 * {@code smartssd info --check}: a healthy drive with extent trees passes; the same drive
 * with bytes of one object's extent-tree node overwritten in the image file (offline) is
 * reported inconsistent, naming the problem, the object and the page, and the check
 * writes nothing to the damaged image. The client's DriveCheckTest holds
 * {@code SmartSsdDevice.check()} to the same damage (ImageDamage).
 */
class InfoCheckTest {
    @TempDir
    Path dir;

    static Run run(String... args) {
        return CliUsageTest.run(args);
    }

    @Test
    void healthyDrivePassesAndADamagedExtentTreeIsReported() throws Exception {
        Path img = dir.resolve("dev0.img");
        String uri = "emu:" + img;
        // a small drive (2 x 2 dies, 16 MiB), so that filling it is quick
        Run f = run("format", uri, "--profile", TestDrives.tinyProfile(dir).toString(),
                "--capacity", "16M", "--max-objects", "4096");
        assertThat(f.code()).as(f.err()).isZero();

        long tree;
        try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
            tree = ImageDamage.fragmentedObject(d);
            DriveCheck c = d.check();
            assertThat(c.consistent()).as(c.verdict()).isTrue();
            assertThat(c.treeObjects()).as("an object with an extent tree").isPositive();
            assertThat(c.nodePages()).isPositive();
        }

        Run ok = run("info", "--check", uri);
        assertThat(ok.code()).as(ok.out() + ok.err()).isZero();
        assertThat(ok.out()).containsPattern("check: +consistent: \\d+ objects \\(1 with extent trees");

        List<Long> nodes = ImageDamage.nodePagesOf(img, tree);
        assertThat(nodes).as("the object's extent-tree node pages in the image").isNotEmpty();
        ImageDamage.overwriteNodes(img, nodes);
        byte[] damaged = Files.readAllBytes(img);

        Run bad = run("info", "--check", uri);
        assertThat(bad.code()).as(bad.out() + bad.err()).isEqualTo(ExitCodes.INCONSISTENT);
        assertThat(bad.out()).contains("INCONSISTENT: extent-tree node unreadable")
                .contains(String.format(Locale.ROOT, "object %#x", tree))
                .containsPattern("logical page \\d+, tree level 0")
                .contains("came up without its object store");
        // every other object command is refused with the reason; the store wrote nothing
        // (the damaged node pages are as the test left them, and the check says the same
        // again; the FTL may write its own checkpoint at mount, as at every mount)
        Run ls = run("ls", uri);
        assertThat(ls.code()).isEqualTo(ExitCodes.DRIVE);
        assertThat(ls.err()).contains("STORE_DAMAGED");
        byte[] now = Files.readAllBytes(img);
        for (long at : nodes) {
            int p = (int) at;
            assertThat(java.util.Arrays.copyOfRange(now, p, p + 64))
                    .isEqualTo(java.util.Arrays.copyOfRange(damaged, p, p + 64));
        }
        Run again = run("info", "--check", uri);
        assertThat(again.code()).isEqualTo(ExitCodes.INCONSISTENT);
        assertThat(again.out()).isEqualTo(bad.out());
    }

    /** A flipped byte in one data page of a file (offline, in the image) is found: the check
     *  reads every data page against its flash CRC, and names the file and the page. */
    @Test
    void aCorruptDataPageIsReported() throws Exception {
        Path img = TestDrives.image(dir);
        String uri = "emu:" + img;
        byte[] page = new byte[8192];
        new java.util.Random(11).nextBytes(page);
        long oid;
        try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
            oid = d.create("/victim.bin", ObjectType.FILE);
            d.write(oid, 0, ByteBuffer.wrap(page), true);
            d.flush();
        }
        Run ok = run("info", "--check", uri);
        assertThat(ok.code()).as(ok.out() + ok.err()).isZero();
        assertThat(ok.out()).contains("data pages (each read against its CRC)");

        ImageDamage.flipBitOf(img, page);

        Run bad = run("info", "--check", uri);
        assertThat(bad.code()).as(bad.out() + bad.err()).isEqualTo(ExitCodes.INCONSISTENT);
        assertThat(bad.out()).contains("INCONSISTENT: data page unreadable (its flash page fails its CRC)")
                .contains(String.format(Locale.ROOT, "object %#x", oid))
                .containsPattern("logical page \\d+")
                .doesNotContain("came up without");
    }
}
