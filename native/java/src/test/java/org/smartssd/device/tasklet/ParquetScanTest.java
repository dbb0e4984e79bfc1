package org.smartssd.device.tasklet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.ObjectType;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TaskletFailedException;

/**
 * ParquetScan on an emulated drive: the Parquet files of
 * firmware-tasklets/tasklets/tests/pq_vectors stored as objects, every plan there run in the
 * drive, each result equal to DuckDB's answer (gen_pq_scan.py wrote both); a plan the drive
 * cannot do refused with the failure that names it.
 */
class ParquetScanTest {
    private static final Path VECTORS = Path.of(System.getProperty("user.dir"))
            .resolve("../../firmware-tasklets/tasklets/tests/pq_vectors").normalize();
    private static final int BUDGET = 2 << 20;
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @Test
    void everyPlanGivesDuckDbsAnswer(@TempDir Path dir) throws Exception {
        Path img = dir.resolve("pq.img");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 0);
        try (SmartSsdDevice dev = SmartSsdDevice.open("emu:" + img)) {
            long out = dev.createOutput("/pq/result", SmartSsdDevice.CreateOption.PARENTS);
            Map<String, Long> files = new HashMap<>();
            int scans = 0;
            for (String line : Files.readAllLines(VECTORS.resolve("scans.txt"))) {
                String[] f = line.split(" ");
                long oid = files.computeIfAbsent(f[1], name -> store(dev, name));
                byte[] plan = Files.readAllBytes(VECTORS.resolve(f[0] + ".plan"));
                if (f[0].startsWith("v2_")) {
                    assertThatThrownBy(() -> ParquetScan.run(dev, oid, plan, BUDGET, out, TIMEOUT))
                            .isInstanceOfSatisfying(TaskletFailedException.class, e -> assertThat(
                                    e.failure()).isEqualTo(TaskletFailedException.Failure
                                    .INPUT_UNSUPPORTED));
                    continue;
                }
                byte[] want = Files.readAllBytes(VECTORS.resolve(f[0] + ".expect"));
                ParquetScan.Result r = ParquetScan.run(dev, oid, plan, BUDGET, out, TIMEOUT);
                assertThat(r.body()).as(f[0])
                        .isEqualTo(Arrays.copyOf(want, want.length - Trailer.BYTES));
                Trailer t = Trailer.of(want, BuiltinTasklet.PARQUET_SCAN);
                assertThat(r.trailer()).as(f[0]).isEqualTo(t);
                assertThat(r.rowsScanned()).isEqualTo(t.recordsIn());
                assertThat(r.progress().instructions()).isPositive();
                scans++;
            }
            assertThat(scans).isEqualTo(30);

            byte[] gzip = Files.readAllBytes(VECTORS.resolve("dict_snappy-count.plan"));
            gzip[24 + 8 + 24 + 28] = 2;
            long oid = files.get("dict_snappy.parquet");
            assertThatThrownBy(() -> ParquetScan.run(dev, oid, gzip, BUDGET, out, TIMEOUT))
                    .isInstanceOfSatisfying(TaskletFailedException.class, e -> assertThat(
                            e.failure()).isEqualTo(TaskletFailedException.Failure.INPUT_UNSUPPORTED))
                    .hasMessageContaining("INPUT_UNSUPPORTED");
            assertThatThrownBy(() -> ParquetScan.spec(new byte[4097], BUDGET))
                    .hasMessageContaining("4096");
        }
    }

    private static long store(SmartSsdDevice dev, String name) {
        try {
            byte[] b = Files.readAllBytes(VECTORS.resolve(name));
            long oid = dev.create("/pq/" + name, ObjectType.FILE,
                    SmartSsdDevice.CreateOption.PARENTS);
            dev.write(oid, 0, b, 0, b.length, false);
            return oid;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** BuiltinTasklet is enum ss_builtin_id of builtin_tasklets.h, ids and names, read there. */
    @Test
    void theTaskletIdsAreTheFirmwaresOwn() throws Exception {
        Path header = Path.of(System.getProperty("user.dir")).resolve(
                "../../firmware-tasklets/include/smartssd/builtin_tasklets.h").normalize();
        String text = Files.readString(header);
        String body = text.substring(text.indexOf("enum ss_builtin_id {"));
        body = body.substring(0, body.indexOf("};"));
        Map<Integer, String> fromHeader = new HashMap<>();
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("SS_BT_\\w+ = (\\d+),\\s*/\\* \"([a-z-]+)\"").matcher(body);
        while (m.find()) {
            fromHeader.put(Integer.parseInt(m.group(1)), m.group(2));
        }
        Map<Integer, String> fromJava = new HashMap<>();
        for (BuiltinTasklet t : BuiltinTasklet.values()) {
            fromJava.put(t.id(), t.taskletName());
        }
        assertThat(fromHeader).hasSizeGreaterThanOrEqualTo(7);
        assertThat(fromJava).isEqualTo(fromHeader);
        assertThat(ParquetScan.spec(new byte[24], 4096).taskletId())
                .isEqualTo(BuiltinTasklet.PARQUET_SCAN.id());
    }
}
