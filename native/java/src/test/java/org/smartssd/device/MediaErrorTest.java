package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MEDIA_ERROR reaches Java as SmartSsdException: a flash page of a file is corrupted in the
 * image while the drive is closed (a bit flip the FTL's page CRC catches), and reading the
 * file through the drive then fails with the drive's reason instead of returning wrong data.
 * The image is touched only by this test, standing in for failing NAND cells.
 */
class MediaErrorTest {
    private static final int PAGE = 8192;

    @Test
    void aCorruptedFlashPageIsAMediaErrorNotWrongData(@TempDir Path dir) throws Exception {
        Path img = TestDrives.image(dir);
        byte[] page = new byte[PAGE];
        new Random(7).nextBytes(page);
        long oid;
        try (SmartSsdDevice dev = SmartSsdDevice.open("emu:" + img)) {
            oid = dev.create("/victim.bin", ObjectType.FILE);
            dev.write(oid, 0, page, 0, PAGE, true);
            dev.flush();
        }

        byte[] image = Files.readAllBytes(img);
        int at = indexOf(image, page);
        assertThat(at).as("the page's bytes are in the image").isGreaterThanOrEqualTo(0);
        try (RandomAccessFile f = new RandomAccessFile(img.toFile(), "rw")) {
            f.seek(at + PAGE / 2);
            f.write(image[at + PAGE / 2] ^ 0x10);
        }

        try (SmartSsdDevice dev = SmartSsdDevice.open("emu:" + img)) {
            byte[] back = new byte[PAGE];
            assertThatThrownBy(() -> dev.read(oid, 0, back, 0, PAGE))
                    .isInstanceOf(SmartSsdException.class)
                    .satisfies(e -> assertThat(((SmartSsdException) e).reasonCode())
                            .isEqualTo(Reason.MEDIA_ERROR.code()));
            // the rest of the drive keeps working
            long other = dev.create("/after.bin", ObjectType.FILE);
            dev.write(other, 0, new byte[] {1, 2, 3}, 0, 3, false);
            byte[] three = new byte[3];
            assertThat(dev.read(other, 0, three, 0, 3)).isEqualTo(3);
            assertThat(three).containsExactly(1, 2, 3);
        }
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            if (hay[i] != needle[0]) {
                continue;
            }
            for (int k = 1; k < 64; k++) {
                if (hay[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
