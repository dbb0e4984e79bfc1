package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.EnergyAccountant;
import org.smartssd.device.HostPowerProfile;
import org.smartssd.device.InputRange;
import org.smartssd.device.ModelCounters;
import org.smartssd.device.ObjectType;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.SharedDriveEnergy;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.tasklet.BuiltinTasklet;
import org.smartssd.device.tasklet.Grep;
import org.smartssd.scan.TaskletRun;

/**
 * Two tasklet runs at once on one in-process emulated drive (emu:): their device energies
 * are shares of the drive's, kept by the drive's energy ledger, which add up to the drive's
 * energy over their period exactly, each in proportion to its own counted work priced with
 * the profile's constants (read here from the profile file, not from the drive). The same
 * ledger across processes on a daemon-served drive: native/tests/energy_ut.c.
 */
class SharedDriveEnergyTest {
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    @Test
    void concurrentRunsShareTheDrivesEnergyByTheirCountedWork() throws Exception {
        Path img = dir.resolve("dev0.img");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 0);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (SmartSsdDevice dev = SmartSsdDevice.open("emu:" + img)) {
            InputRange small = write(dev, "/in/small", 20_000);
            InputRange large = write(dev, "/in/large", 90_000);
            TaskletSpec grep = new TaskletSpec(BuiltinTasklet.GREP.id(), RecordLayout.lines(4096),
                    Grep.lines("hit").params(), 64 * 1024, 0);
            EnergyAccountant acct = new EnergyAccountant(dev, HostPowerProfile.fromSystemProperties());

            // The test takes part in the period from before anything runs to after both
            // runs have left, with no work of its own: the period is then exactly what the
            // test brackets with its own readings of the drive's counters.
            ModelCounters before = dev.modelCounters().orElseThrow();
            SharedDriveEnergy.Ticket bracket = SharedDriveEnergy.join(dev, 0).orElseThrow();
            List<TaskletRun> runs = new ArrayList<>();
            List<Future<?>> done = new ArrayList<>();
            try {
                runs.add(TaskletRun.start(dev, grep, small, "/out/small", TIMEOUT, acct));
                runs.add(TaskletRun.start(dev, grep, large, "/out/large", TIMEOUT, acct));
                for (TaskletRun r : runs) {
                    done.add(pool.submit(() -> {
                        while (!r.finished()) {
                            r.next(Duration.ofSeconds(1));
                        }
                        return null;
                    }));
                }
                SharedDriveEnergy.Share mine = bracket.leave(TIMEOUT);
                for (Future<?> f : done) {
                    f.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                }
                ModelCounters after = dev.modelCounters().orElseThrow();
                long driveNj = after.energyTotalNj() - before.energyTotalNj();

                SharedDriveEnergy.Share a = runs.get(0).energyShare();
                SharedDriveEnergy.Share b = runs.get(1).energyShare();
                assertThat(a.tasks()).as("both runs and the bracket in one period").isEqualTo(3);
                assertThat(a.clients()).as("one process, one connection").isEqualTo(1);
                assertThat(mine.taskNj()).as("no work, no energy").isZero();
                assertThat(a.periodNj()).isEqualTo(driveNj);
                assertThat(a.taskNj() + b.taskNj()).as("shares add up to the drive's energy")
                        .isEqualTo(driveNj);
                assertThat(runs.get(0).energy().deviceJoules() + runs.get(1).energy().deviceJoules())
                        .isCloseTo(driveNj / 1e9, org.assertj.core.data.Offset.offset(1e-9));

                // proportional to each run's counted work, priced from the profile file
                Prices p = Prices.of(profileFile());
                long wa = p.weightPj(runs.get(0).last());
                long wb = p.weightPj(runs.get(1).last());
                assertThat(runs.get(1).last().pagesDone())
                        .isGreaterThan(3 * runs.get(0).last().pagesDone());
                assertThat(a.taskWeightPj()).isEqualTo(wa);
                assertThat(b.taskWeightPj()).isEqualTo(wb);
                assertExactShare(a.taskNj(), driveNj, wa, wa + wb);
                assertExactShare(b.taskNj(), driveNj, wb, wa + wb);
                assertThat(b.taskNj()).isGreaterThan(a.taskNj());
            } finally {
                bracket.abandon();
                for (TaskletRun r : runs) {
                    r.close();
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** |share - total x w / sum| < 1 nJ. */
    private static void assertExactShare(long share, long total, long w, long sum) {
        BigDecimal exact = BigDecimal.valueOf(total).multiply(BigDecimal.valueOf(w))
                .divide(BigDecimal.valueOf(sum), MathContext.DECIMAL128);
        assertThat(BigDecimal.valueOf(share).subtract(exact).abs())
                .isLessThan(BigDecimal.ONE);
    }

    private static InputRange write(SmartSsdDevice dev, String path, int lines) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            sb.append("line ").append(i).append(i % 7 == 0 ? " hit" : "").append('\n');
        }
        byte[] text = sb.toString().getBytes(StandardCharsets.US_ASCII);
        long oid = dev.create(path, ObjectType.FILE, SmartSsdDevice.CreateOption.PARENTS);
        dev.write(oid, 0, ByteBuffer.wrap(text), true);
        return new InputRange(oid, 0, text.length);
    }

    private static Path profileFile() {
        return Path.of(System.getProperty("user.dir"))
                .resolve("../firmware-tasklets/emu/profiles/kang-smartssd.profile").normalize();
    }

    /** The kang-smartssd profile's prices, parsed from its file. */
    private record Prices(long readNj, long pageNs, long insnPs, long dramNs, long ispMw,
                          long linkPj) {
        static Prices of(Path profile) throws Exception {
            String t = Files.readString(profile);
            return new Prices(Long.parseLong(key(t, "nand_read_nj")),
                    Long.parseLong(key(t, "fw_page_overhead_ns")),
                    new BigDecimal(key(t, "isp_ns_per_instruction")).movePointRight(3)
                            .longValueExact(),
                    Long.parseLong(key(t, "dram_access_ns")), Long.parseLong(key(t, "isp_active_mw")),
                    Long.parseLong(key(t, "link_pj_per_byte")));
        }

        private static String key(String text, String k) {
            Matcher m = Pattern.compile("(?m)^" + k + "\\s*=\\s*([0-9.]+)").matcher(text);
            assertThat(m.find()).as("%s in the profile", k).isTrue();
            return m.group(1);
        }

        /** pJ: pages read, ISP time (ns) x mW, output bytes over the link. */
        long weightPj(TaskletProgress p) {
            long ispNs = p.pagesDone() * pageNs + (p.instructions() * insnPs + 999) / 1000
                    + p.dramAccesses() * dramNs;
            return p.pagesDone() * readNj * 1000 + ispNs * ispMw + p.outputBytes() * linkPj;
        }
    }
}
