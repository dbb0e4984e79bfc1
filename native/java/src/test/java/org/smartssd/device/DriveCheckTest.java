package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SmartSsdDevice#check()} against damage done to the image offline: a healthy drive
 * with an extent tree passes; overwritten extent-tree node pages are found (the object, tree
 * level 0), the drive comes up without its store, refuses object commands with
 * STORE_DAMAGED and writes nothing to the node pages; a flipped bit in a data page is found
 * against the page's flash CRC. smartssd-cli's InfoCheckTest prints the same through
 * {@code smartssd info --check}.
 */
class DriveCheckTest {
    private static final long NO_LPN = 0xFFFFFFFFL;

    @TempDir
    Path dir;

    @Test
    void damagedExtentTreeNodesAreFoundAndTheStoreStaysUnmounted() throws Exception {
        Path img = dir.resolve("dev0.img");
        String uri = "emu:" + img;
        // a small drive (2 x 2 dies, 16 MiB), so that filling it is quick
        SmartSsdDevice.formatEmulated(img, TestDrives.tinyProfile(dir).toString(), 16L << 20, 4096);
        long tree;
        try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
            tree = ImageDamage.fragmentedObject(d);
            DriveCheck c = d.check();
            assertThat(c.consistent()).as(c.verdict()).isTrue();
            assertThat(c.storeMounted()).isTrue();
            assertThat(c.treeObjects()).as("objects with an extent tree").isEqualTo(1);
            assertThat(c.nodePages()).isPositive();
        }

        List<Long> nodes = ImageDamage.nodePagesOf(img, tree);
        assertThat(nodes).as("the object's extent-tree node pages in the image").isNotEmpty();
        ImageDamage.overwriteNodes(img, nodes);
        byte[] damaged = Files.readAllBytes(img);

        try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
            DriveCheck c = d.check();
            assertThat(c.consistent()).as(c.verdict()).isFalse();
            assertThat(c.problemName()).startsWith("extent-tree node unreadable");
            assertThat(c.problemOid()).isEqualTo(tree);
            assertThat(c.problemLevel()).isZero();
            assertThat(c.problemLpn()).isNotEqualTo(NO_LPN);
            assertThat(c.storeMounted()).as("the mount's own check found it").isFalse();
            assertThatThrownBy(() -> d.list("/"))
                    .isInstanceOfSatisfying(SmartSsdException.class,
                            e -> assertThat(e.reason()).isEqualTo(Reason.STORE_DAMAGED));
            assertThat(d.check()).as("the same verdict again").isEqualTo(c);
        }
        // the store wrote nothing: the node pages are as the test left them (the FTL may
        // write its own checkpoint at mount, as at every mount)
        byte[] now = Files.readAllBytes(img);
        for (long at : nodes) {
            int p = (int) at;
            assertThat(Arrays.copyOfRange(now, p, p + 64)).as("node page at %d", at)
                    .isEqualTo(Arrays.copyOfRange(damaged, p, p + 64));
        }
    }

    @Test
    void aCorruptDataPageIsFoundAgainstItsCrc() throws Exception {
        Path img = TestDrives.image(dir);
        String uri = "emu:" + img;
        byte[] page = new byte[8192];
        new Random(11).nextBytes(page);
        long oid;
        try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
            oid = d.create("/victim.bin", ObjectType.FILE);
            d.write(oid, 0, ByteBuffer.wrap(page), true);
            d.flush();
            DriveCheck c = d.check();
            assertThat(c.consistent()).as(c.verdict()).isTrue();
            assertThat(c.dataPages()).as("data pages read against their CRC").isPositive();
        }

        ImageDamage.flipBitOf(img, page);

        try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
            DriveCheck c = d.check();
            assertThat(c.consistent()).as(c.verdict()).isFalse();
            assertThat(c.problemName()).isEqualTo("data page unreadable (its flash page fails its CRC)");
            assertThat(c.problemOid()).isEqualTo(oid);
            assertThat(c.problemLpn()).isNotEqualTo(NO_LPN);
            assertThat(c.storeMounted()).isTrue();
        }
    }
}
