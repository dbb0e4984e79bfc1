package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Names are stored exactly or refused: a name the drive would list ambiguously (control
 * characters) or that would collide with another (not Unicode) never reaches it.
 */
class PathNamesTest {
    @TempDir
    Path dir;

    @Test
    void unicodeNamesRoundTripAndAmbiguousOnesAreRefused() throws Exception {
        try (SmartSsdDevice dev = SmartSsdDevice.open("emu:" + TestDrives.image(dir))) {
            dev.mkdirs("/d");
            dev.create("/d/caf\u00e9 \u20ac \uD83D\uDE00", ObjectType.FILE);
            assertThat(dev.list("/d")).extracting(DirEntry::name)
                    .containsExactly("caf\u00e9 \u20ac \uD83D\uDE00");

            // an unpaired surrogate would become '?' and collide with "/d/x?"
            assertThatThrownBy(() -> dev.create("/d/x\uD800", ObjectType.FILE))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not valid Unicode");
            for (String bad : List.of("/d/a\nb", "/d/tab\there", "/d/\u001b[31m", "/d/del\u007f",
                    "/d/c1\u009b")) {
                assertThatThrownBy(() -> dev.create(bad, ObjectType.FILE))
                        .as(bad.replace("\u001b", "ESC"))
                        .isInstanceOf(InvalidPathException.class)
                        .hasMessageContaining("BAD_PATH");
            }
            assertThat(dev.list("/d")).hasSize(1);
        }
    }
}
