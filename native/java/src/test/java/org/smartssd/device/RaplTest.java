package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RaplTest {
    private static Path zone(Path root, String id, String name, String energy, String max)
            throws Exception {
        Path z = Files.createDirectories(root.resolve(id));
        Files.writeString(z.resolve("name"), name + "\n");
        if (energy != null) {
            Files.writeString(z.resolve("energy_uj"), energy + "\n");
        }
        if (max != null) {
            Files.writeString(z.resolve("max_energy_range_uj"), max + "\n");
        }
        return z;
    }

    @Test
    void onlyTopLevelZonesCountAndSubzonesAndMmioAreSkipped(@TempDir Path root) throws Exception {
        zone(root, "intel-rapl:0", "package-0", "5000", "65532610987");
        zone(root, "intel-rapl:1", "package-1", "7000", "65532610987");
        zone(root, "intel-rapl:0:0", "core", "4000", "65532610987");
        zone(root, "intel-rapl:0:1", "uncore", "100", "65532610987");
        zone(root, "intel-rapl-mmio:0", "package-0", "5000", "65532610987");
        zone(root, "intel-rapl", "none", null, null); // the control type directory
        Rapl r = Rapl.scan(root);
        assertThat(r.present()).isTrue();
        assertThat(r.zones()).extracting(Rapl.Zone::id).containsExactly("intel-rapl:0",
                "intel-rapl:1");
        assertThat(r.zones()).extracting(Rapl.Zone::name).containsExactly("package-0",
                "package-1");
        assertThat(r.read()).isEqualTo(Map.of("intel-rapl:0", 5000L, "intel-rapl:1", 7000L));
    }

    @Test
    void deltaSumsZonesAndHandlesOneWrap(@TempDir Path root) throws Exception {
        zone(root, "intel-rapl:0", "package-0", "0", "1000000");
        zone(root, "intel-rapl:1", "package-1", "0", "1000000");
        Rapl r = Rapl.scan(root);
        Map<String, Long> a = Map.of("intel-rapl:0", 999_000L, "intel-rapl:1", 10L);
        Map<String, Long> b = Map.of("intel-rapl:0", 500L, "intel-rapl:1", 2_010L);
        // zone 0 wrapped: 1_000_000 - 999_000 + 500 = 1_500; zone 1: 2_000
        assertThat(r.deltaMicroJoules(a, b)).isEqualTo(3_500);
    }

    @Test
    void missingTreeOrUnreadableCountersMeanNoRapl(@TempDir Path root) throws Exception {
        assertThat(Rapl.scan(root.resolve("absent")).present()).isFalse();
        zone(root, "intel-rapl:0", "package-0", "not-a-number", "1000");
        assertThat(Rapl.scan(root).present()).isFalse();
    }

    @Test
    void liveFileChangesAreRead(@TempDir Path root) throws Exception {
        Path z = zone(root, "intel-rapl:0", "package-0", "100", "1000000");
        Rapl r = Rapl.scan(root);
        Map<String, Long> a = r.read();
        Files.writeString(z.resolve("energy_uj"), "2600\n");
        assertThat(r.deltaMicroJoules(a, r.read())).isEqualTo(2_500);
    }
}
