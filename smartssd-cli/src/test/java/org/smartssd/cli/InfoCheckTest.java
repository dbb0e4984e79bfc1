package org.smartssd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.cli.CliUsageTest.Run;
import org.smartssd.device.DriveCheck;
import org.smartssd.device.DriveFullException;
import org.smartssd.device.FsStat;
import org.smartssd.device.ObjectType;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TestDrives;

/**
 * {@code smartssd info --check}: a healthy drive with extent trees passes; the same drive
 * with bytes of one object's extent-tree node overwritten in the image file (offline) is
 * reported inconsistent, naming the problem, the object and the page, and the check
 * writes nothing to the damaged image.
 */
class InfoCheckTest {
    /** An extent-tree node page starts with this magic (objstore_internal.h, "OSXN"). */
    private static final int XNODE_MAGIC = 0x4e58534f;

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
            tree = fragmentedObject(d);
            DriveCheck c = d.check();
            assertThat(c.consistent()).as(c.verdict()).isTrue();
            assertThat(c.treeObjects()).as("an object with an extent tree").isPositive();
            assertThat(c.nodePages()).isPositive();
        }

        Run ok = run("info", "--check", uri);
        assertThat(ok.code()).as(ok.out() + ok.err()).isZero();
        assertThat(ok.out()).containsPattern("check: +consistent: \\d+ objects \\(1 with extent trees");

        List<Long> nodes = nodePagesOf(img, tree);
        assertThat(nodes).as("the object's extent-tree node pages in the image").isNotEmpty();
        try (FileChannel ch = FileChannel.open(img, StandardOpenOption.WRITE)) {
            for (long at : nodes) {
                ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}), at + 40);
            }
        }
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

        byte[] image = Files.readAllBytes(img);
        long at = indexOf(image, page);
        assertThat(at).as("the page's bytes are in the image").isNotNegative();
        try (FileChannel ch = FileChannel.open(img, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {(byte) (image[(int) at + 100] ^ 0x40)}), at + 100);
        }

        Run bad = run("info", "--check", uri);
        assertThat(bad.code()).as(bad.out() + bad.err()).isEqualTo(ExitCodes.INCONSISTENT);
        assertThat(bad.out()).contains("INCONSISTENT: data page unreadable (its flash page fails its CRC)")
                .contains(String.format(Locale.ROOT, "object %#x", oid))
                .containsPattern("logical page \\d+")
                .doesNotContain("came up without");
    }

    private static long indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int k = 0; k < 64; k++) {
                if (hay[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /**
     * An object whose extents far outnumber the record's inline room (22 to 53): fill the
     * drive with pairs of a one-page object and a larger one (sized so that the object table
     * does not fill first), remove every one-page object, and write an object with a long
     * name into the one-page holes until the drive is full. \return its oid.
     */
    private static long fragmentedObject(SmartSsdDevice d) throws Exception {
        int page = d.info().pageSize();
        FsStat st = d.fsStat();
        long pairs = (st.maxObjects() - st.objects() - 4) / 2;
        int big = (int) Math.max(1, (st.capacityBytes() / page + pairs - 1) / pairs);
        List<String> small = new ArrayList<>();
        try {
            for (int i = 0; ; i++) {
                String p = "/s" + i;
                long o = d.create(p, ObjectType.FILE);
                small.add(p);
                d.write(o, 0, ByteBuffer.wrap(new byte[page]), false);
                long b = d.create("/b" + i, ObjectType.FILE);
                d.write(b, 0, ByteBuffer.wrap(new byte[big * page]), false);
            }
        } catch (DriveFullException full) {
            // the drive (or its object table) is full
        }
        for (String p : small) {
            d.remove(p, false);
        }
        d.flush();
        // a long name leaves the record room for only 22 inline extents
        long a = d.create("/" + "f".repeat(250), ObjectType.FILE);
        byte[] chunk = new byte[page];
        try {
            for (int i = 0; i < 200; i++) {
                java.util.Arrays.fill(chunk, (byte) ('a' + i % 26));
                d.write(a, (long) i * page, ByteBuffer.wrap(chunk), false);
            }
        } catch (DriveFullException full) {
            // every hole is taken
        }
        d.flush();
        assertThat(d.stat(a).extentCount()).as("extents of the fragmented object")
                .isGreaterThan(30);
        return a;
    }

    /** Offsets in the image of pages that begin as an extent-tree node of object oid. */
    private static List<Long> nodePagesOf(Path img, long oid) throws Exception {
        List<Long> at = new ArrayList<>();
        byte[] all = Files.readAllBytes(img);
        ByteBuffer le = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i + 24 <= all.length; i += 4) {
            if (le.getInt(i) == XNODE_MAGIC && le.getLong(i + 8) == oid) {
                at.add((long) i);
            }
        }
        return at;
    }
}
