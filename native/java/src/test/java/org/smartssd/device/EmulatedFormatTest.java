package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Formatting an emulated drive's image ({@link EmulatedFormat}), the emulator's factory step. */
class EmulatedFormatTest {
    /** A profile file's {@code name = ...} or {@code model = ...} line, comment dropped. */
    private static final Pattern KEY =
            Pattern.compile("(?m)^(name|model)\\s*=\\s*([^#\\n]*?)\\s*(#.*)?$");

    @TempDir
    Path dir;

    /** Profile name to IDENTIFY model, as the emulator's profile files in the tree say. */
    private static Map<String, String> profileFiles() throws IOException {
        Path profiles = Path.of(System.getProperty("user.dir"))
                .resolve("../../firmware-tasklets/emu/profiles").normalize();
        Map<String, String> models = new TreeMap<>();
        try (Stream<Path> files = Files.list(profiles)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".profile"))
                    ::iterator) {
                Matcher m = KEY.matcher(Files.readString(f));
                String name = null;
                String model = null;
                while (m.find()) {
                    if (m.group(1).equals("name")) {
                        name = m.group(2);
                    } else {
                        model = m.group(2);
                    }
                }
                assertThat(name).as("name in %s", f).isNotNull();
                models.put(name, model);
            }
        }
        assertThat(models).as("profiles under %s", profiles).isNotEmpty();
        return models;
    }

    @Test
    void theBuiltInProfilesAreTheProfileFilesAndEachFormatsADriveOfItsModel() throws Exception {
        Map<String, String> files = profileFiles();
        assertThat(EmulatedFormat.profiles()).containsExactlyInAnyOrderElementsOf(files.keySet());
        for (String profile : EmulatedFormat.profiles()) {
            Path img = dir.resolve(profile + ".img");
            EmulatedFormat.of(profile, 1L << 30, 0).format(img);
            try (SmartSsdDevice dev = SmartSsdDevice.open("emu:" + img)) {
                assertThat(dev.info().model()).as(profile).isEqualTo(files.get(profile));
            }
        }
    }

    @Test
    void anImageHoldingObjectsIsOverwrittenOnlyWithForce() throws Exception {
        Path img = TestDrives.image(dir);
        try (SmartSsdDevice dev = SmartSsdDevice.open("emu:" + img)) {
            dev.create("/kept", ObjectType.FILE);
        }
        EmulatedFormat again = EmulatedFormat.of(null, 256L << 20, 0);
        assertThatThrownBy(() -> again.format(img)).isInstanceOf(IOException.class)
                .hasMessageContaining(img.toString());
        try (SmartSsdDevice dev = SmartSsdDevice.open("emu:" + img)) {
            assertThat(dev.find("/kept")).isPresent();
        }
        again.withForce(true).format(img);
        try (SmartSsdDevice dev = SmartSsdDevice.open("emu:" + img)) {
            assertThat(dev.find("/kept")).isEmpty();
        }
    }

    @Test
    void aProfileTheEmulatorDoesNotKnowIsRefusedNamingIt() {
        Path img = dir.resolve("x.img");
        assertThatThrownBy(() -> EmulatedFormat.of("no-such-profile", 256L << 20, 0).format(img))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("format " + img + " with profile no-such-profile [");
    }

    @Test
    void badOptionsAreRefusedBeforeTheEmulatorSeesThem() {
        assertThatThrownBy(() -> EmulatedFormat.of(null, -1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
        assertThatThrownBy(() -> EmulatedFormat.of(null, 0, 0).withBuffer("lru", -4096, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
        assertThatThrownBy(() -> EmulatedFormat.of(null, 0, 0).withCacheShare(91))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 91");
        assertThatThrownBy(() -> EmulatedFormat.of(null, 0, 0).withCacheShare(-2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got -2");
        assertThatThrownBy(() -> EmulatedFormat.of(null, 0, 0).withInterface(null))
                .isInstanceOf(NullPointerException.class);
    }
}
