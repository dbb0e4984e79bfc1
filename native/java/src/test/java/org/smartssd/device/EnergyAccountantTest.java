package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.EnergyAccountant.Sample;

class EnergyAccountantTest {
    private static final double EPS = 1e-9;

    private static ModelCounters model(long nowNs, long in, long out, long read, long prog,
                                       long erase, long link, long isp, long idle) {
        long total = read + prog + erase + link + isp + idle;
        return new ModelCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, in, out, 0, 0, 0, 0, 0, 0, 0,
                nowNs, read, prog, erase, link, isp, idle, total, nowNs,
                ModelCounters.WorkPrices.NONE);
    }

    @Test
    void modelledHostAndDeviceEnergyByHand() {
        Rapl none = Rapl.scan(Path.of("/nonexistent-powercap"));
        Sample a = new Sample(1_000_000_000L, 2_000_000_000L, 2_010_000_000L, Map.of(),
                model(5_000_000, 100, 200, 1_000, 2_000, 0, 300, 400, 3_000), 10);
        // 2.5 s wall, 1.5 s CPU; device: 0.25 s modelled, energies grow by the deltas below
        Sample b = new Sample(3_500_000_000L, 3_500_000_000L, 3_530_000_000L, Map.of(),
                model(255_000_000, 1_100, 8_200, 9_251_000, 2_000, 990_000, 4_800, 650_400,
                        150_003_000), 9_999);
        EnergyReport r = EnergyAccountant.compute(a, b, HostPowerProfile.KANG_2014, none);

        assertThat(r.wallSeconds()).isCloseTo(2.5, offset(EPS));
        assertThat(r.hostCpuSeconds()).isCloseTo(1.5, offset(EPS));
        assertThat(r.procCpuSeconds()).isCloseTo(1.52, offset(EPS));
        // idle 44 W * 2.5 s = 110 J; busy 35 W / 4 cores * 1.5 CPU-s = 13.125 J
        assertThat(r.hostIdleJoules()).isCloseTo(110.0, offset(EPS));
        assertThat(r.hostBusyJoules()).isCloseTo(13.125, offset(EPS));
        assertThat(r.hostModelJoules()).isCloseTo(123.125, offset(EPS));
        assertThat(r.hostMeasured()).isFalse();
        assertThat(r.raplJoules()).isNaN();
        assertThat(r.hostJoules()).isCloseTo(123.125, offset(EPS));
        // device: read 9.25 mJ, erase 0.99 mJ, link 4.5 uJ, isp 0.65 mJ, idle 0.15 J
        assertThat(r.deviceModelled()).isTrue();
        assertThat(r.device().nandRead()).isCloseTo(0.00925, offset(EPS));
        assertThat(r.device().nandProgram()).isCloseTo(0.0, offset(EPS));
        assertThat(r.device().nandErase()).isCloseTo(0.00099, offset(EPS));
        assertThat(r.device().link()).isCloseTo(0.0000045, offset(EPS));
        assertThat(r.device().isp()).isCloseTo(0.00065, offset(EPS));
        assertThat(r.device().idle()).isCloseTo(0.15, offset(EPS));
        assertThat(r.deviceJoules()).isCloseTo(0.00925 + 0.00099 + 0.0000045 + 0.00065 + 0.15,
                offset(EPS));
        assertThat(r.deviceTimeNs()).isEqualTo(250_000_000L);
        // link from the drive's model: (1100 + 8200) - (100 + 200)
        assertThat(r.linkBytes()).isEqualTo(9_000);
        assertThat(r.totalJoules()).isCloseTo(123.125 + r.deviceJoules(), offset(EPS));
    }

    @Test
    void realDriveHasNoDeviceEnergyAndCountsLinkBytesOnTheHost() {
        Rapl none = Rapl.scan(Path.of("/nonexistent-powercap"));
        Sample a = new Sample(0, 0, -1, Map.of(), null, 4096);
        Sample b = new Sample(1_000_000_000L, 250_000_000L, -1, Map.of(), null, 4096 + 65536);
        HostPowerProfile p = new HostPowerProfile(50, 40, 8);
        EnergyReport r = EnergyAccountant.compute(a, b, p, none);
        assertThat(r.deviceModelled()).isFalse();
        assertThat(r.deviceJoules()).isNaN();
        assertThat(r.linkBytes()).isEqualTo(65536);
        assertThat(r.procCpuSeconds()).isNaN();
        // 50 W * 1 s + 40 W / 8 * 0.25 s = 51.25 J; device unknown counts as 0 in the total
        assertThat(r.hostJoules()).isCloseTo(51.25, offset(EPS));
        assertThat(r.totalJoules()).isCloseTo(51.25, offset(EPS));
    }

    @Test
    void raplIsReportedAsMeasured(@TempDir Path root) throws Exception {
        Path z = Files.createDirectories(root.resolve("intel-rapl:0"));
        Files.writeString(z.resolve("name"), "package-0\n");
        Files.writeString(z.resolve("energy_uj"), "1000\n");
        Files.writeString(z.resolve("max_energy_range_uj"), "262143328850\n");
        Rapl rapl = Rapl.scan(root);
        Sample a = new Sample(0, 0, 0, Map.of("intel-rapl:0", 262_143_000_000L), null, 0);
        // wrapped: (262143328850 - 262143000000) + 2_671_150 = 3_000_000 uJ = 3 J
        Sample b = new Sample(1_000_000_000L, 0, 0, Map.of("intel-rapl:0", 2_671_150L), null, 0);
        EnergyReport r = EnergyAccountant.compute(a, b, HostPowerProfile.KANG_2014, rapl);
        assertThat(r.hostMeasured()).isTrue();
        assertThat(r.raplJoules()).isCloseTo(3.0, offset(EPS));
        assertThat(r.hostJoules()).isCloseTo(3.0, offset(EPS));
        // the model is still reported beside the measurement: 44 W * 1 s
        assertThat(r.hostModelJoules()).isCloseTo(44.0, offset(EPS));
        assertThat(r.toString()).contains("measured by RAPL");
    }
}
