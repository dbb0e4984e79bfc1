package org.smartssd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.cli.CliUsageTest.Run;
import org.smartssd.device.Devd;
import org.smartssd.device.InputRange;
import org.smartssd.device.ObjectType;
import org.smartssd.device.SmartSsdException;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.tasklet.BpfProgram;

/**
 * {@code smartssd tasklet load|ls|rm} through smartssd-devd, on the programs clang compiled
 * during the C build (firmware-tasklets/bpf/tests/progs): a refusal's message names the
 * verifier's reason and instruction, in the CLI's output and in the Java exception; a loaded
 * program survives a restart of the daemon and runs ({@link BpfProgram#run}) to the answer
 * worked out here from the same records; rm removes it.
 */
class CliTaskletTest {
    private static final int RECORDS = 5000;
    private static final int KEYS = 11;

    @TempDir
    Path dir;

    static Path program(String name) {
        Path p = Path.of(System.getProperty("smartssd.native.build", "."),
                "firmware-tasklets", "bpf", "progs", name + ".o");
        assumeTrue(Files.isRegularFile(p), "no " + p + ": clang -target bpf was not found when"
                + " the C build was configured");
        return p;
    }

    static Run run(String... args) {
        return CliUsageTest.run(args);
    }

    private static byte[] records() {
        ByteBuffer b = ByteBuffer.allocate(RECORDS * 16);
        for (int i = 0; i < RECORDS; i++) {
            b.putInt(i * 16, i % KEYS).putLong(i * 16 + 8, (long) (i * 37 % 1001) - 500);
        }
        return b.array();
    }

    @Test
    void loadListRunAcrossARestartAndRemove() throws Exception {
        Path group = program("isp_group");
        Path oob = program("hostile_oob");
        Path div = program("hostile_div");
        Path img = dir.resolve("dev0.img");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 0);
        Path sock = dir.resolve("dev0.sock");
        Devd devd = Devd.start(img, sock, Duration.ofSeconds(30));
        try {
            String uri = devd.uri();
            Run ok = run("tasklet", "load", uri, group.toString(), "--name", "grp");
            assertThat(ok.code()).as(ok.err()).isZero();
            assertThat(ok.out()).contains("loaded grp:").contains("instructions, verified");

            Run bad = run("tasklet", "load", uri, oob.toString(), "--name", "bad");
            assertThat(bad.code()).isEqualTo(ExitCodes.DRIVE);
            assertThat(bad.err()).contains("program refused at instruction 1:")
                    .contains("memory access not proven inside its buffer (OUT_OF_BOUNDS)");

            Run again = run("tasklet", "load", uri, group.toString(), "--name", "grp");
            assertThat(again.code()).isEqualTo(ExitCodes.CONFLICT);

            try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
                assertThatThrownBy(() -> d.loadProgram("div", Files.readAllBytes(div), false))
                        .isInstanceOf(SmartSsdException.class)
                        .hasMessageContaining("program refused at instruction 2:")
                        .hasMessageContaining("(DIV_BY_ZERO)");
                long oid = d.create("/data", ObjectType.FILE);
                byte[] recs = records();
                d.write(oid, 0, recs, 0, recs.length, true);
            }
            devd.close();
            devd = Devd.start(img, sock, Duration.ofSeconds(30));

            Run ls = run("tasklet", "ls", uri);
            assertThat(ls.code()).as(ls.err()).isZero();
            assertThat(ls.out().lines().toList()).hasSize(1);
            assertThat(ls.out()).startsWith("grp ").contains(" insns ");

            try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
                assertThat(d.listPrograms()).singleElement()
                        .satisfies(p -> assertThat(p.name()).isEqualTo("grp"));
                RecordLayout layout = RecordLayout.fixed(16, List.of(
                        new Field(0, FieldType.U32, 0, 0, 0), new Field(8, FieldType.I64, 0, 0, 0)));
                BpfProgram.Output out = new BpfProgram("grp", null, 0, 16, 0, 0).run(d, layout,
                        d.lookup("/data").oid(), 0, InputRange.TO_END, "/grp.out",
                        Duration.ofSeconds(60));
                Map<Long, long[]> want = new HashMap<>();
                ByteBuffer b = ByteBuffer.wrap(records());
                for (int i = 0; i < RECORDS; i++) {
                    long v = b.getLong(i * 16 + 8);
                    long[] g = want.computeIfAbsent((long) b.getInt(i * 16),
                            k -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
                    g[0]++;
                    g[1] += v;
                    g[2] = Math.min(g[2], v);
                    g[3] = Math.max(g[3], v);
                }
                assertThat(out.records()).isEqualTo(RECORDS);
                assertThat(out.groups()).hasSize(KEYS);
                for (BpfProgram.Group g : out.groups()) {
                    long[] w = want.get(g.key());
                    assertThat(new long[] {g.count(), g.sum(), g.min(), g.max()}).as("group %d",
                            g.key()).containsExactly(w);
                }
                assertThat(out.interpretedInstructions()).isGreaterThanOrEqualTo(RECORDS);
            }

            Run rm = run("tasklet", "rm", uri, "grp");
            assertThat(rm.code()).as(rm.err()).isZero();
            assertThat(run("tasklet", "ls", uri).out()).isEmpty();
            Run rm2 = run("tasklet", "rm", uri, "grp");
            assertThat(rm2.code()).isEqualTo(ExitCodes.NOT_FOUND);
            assertThat(rm2.err()).contains("remove program grp").contains("UNKNOWN_TASKLET");
        } finally {
            devd.close();
        }
    }
}
