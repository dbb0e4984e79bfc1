package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Names are stored exactly or refused: a name the drive would list ambiguously (control
 * characters), show reordered (bidirectional controls) or that would collide with another
 * (not Unicode) never reaches it, and the refusal shows the name escaped.
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
                    "/d/c1\u009b", "/d/evil\u202etxt.exe", "/d/lre\u202a", "/d/pdf\u202c",
                    "/d/lri\u2066", "/d/pdi\u2069", "/d/lrm\u200e", "/d/rlm\u200f",
                    "/d/alm\u061c")) {
                assertThatThrownBy(() -> dev.create(bad, ObjectType.FILE))
                        .as(Printable.escape(bad))
                        .isInstanceOf(SmartSsdException.class)
                        .hasMessageContaining("BAD_PATH")
                        // the name is in the message, escaped: nothing a terminal acts on
                        .hasMessageContaining(Printable.escape(bad))
                        .satisfies(e -> assertThat(e.getMessage().codePoints()
                                .filter(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f)
                                        || c == 0x061c || c == 0x200e || c == 0x200f
                                        || (c >= 0x202a && c <= 0x202e)
                                        || (c >= 0x2066 && c <= 0x2069))
                                .count()).isZero());
            }
            assertThat(Printable.escape("/d/\u001b[31m")).isEqualTo("/d/\\x1b[31m");
            assertThat(Printable.escape("/d/evil\u202etxt")).isEqualTo("/d/evil\\u202etxt");
            assertThat(Printable.escape("/d/caf\u00e9")).isEqualTo("/d/caf\u00e9");
            assertThat(dev.list("/d")).hasSize(1);
        }
    }
}
