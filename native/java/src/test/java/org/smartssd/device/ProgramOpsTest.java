package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * eBPF tasklet programs kept by the drive, through the client: load (the drive verifies),
 * list, a name taken, replace, a refusal with its reason, remove. The programs are the ones
 * the C build compiles with clang -target bpf (firmware-tasklets/bpf/tests/progs).
 */
class ProgramOpsTest {
    @TempDir
    Path dir;

    private static byte[] program(String name) throws Exception {
        Path p = Path.of(System.getProperty("smartssd.native.build", "."),
                "firmware-tasklets", "bpf", "progs", name + ".o");
        assumeTrue(Files.isRegularFile(p), "no " + p + ": clang -target bpf was not found when"
                + " the C build was configured");
        return Files.readAllBytes(p);
    }

    @Test
    void loadListReplaceRefuseAndRemove() throws Exception {
        byte[] group = program("isp_group");
        byte[] div = program("hostile_div");
        try (SmartSsdDevice dev = SmartSsdDevice.open("emu:" + TestDrives.image(dir))) {
            assertThat(dev.listPrograms()).isEmpty();
            int insns = dev.loadProgram("grp", group, false);
            assertThat(insns).isPositive();
            assertThat(dev.listPrograms()).singleElement().satisfies(p -> {
                assertThat(p.name()).isEqualTo("grp");
                assertThat(p.instructions()).isEqualTo(insns);
            });
            assertThatThrownBy(() -> dev.loadProgram("grp", group, false))
                    .isInstanceOf(ObjectExistsException.class);
            assertThat(dev.loadProgram("grp", group, true)).isEqualTo(insns);
            assertThatThrownBy(() -> dev.loadProgram("div", div, false))
                    .isInstanceOf(SmartSsdException.class)
                    .hasMessageContaining("(DIV_BY_ZERO)")
                    .satisfies(e -> assertThat(((SmartSsdException) e).reason())
                            .isEqualTo(Reason.PROGRAM_REFUSED));
            assertThat(dev.listPrograms()).extracting(LoadedProgram::name).containsExactly("grp");

            dev.removeProgram("grp");
            assertThat(dev.listPrograms()).isEmpty();
            assertThatThrownBy(() -> dev.removeProgram("grp"))
                    .isInstanceOf(NoSuchObjectException.class);
        }
    }
}
