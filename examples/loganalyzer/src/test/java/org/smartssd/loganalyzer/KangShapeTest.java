package org.smartssd.loganalyzer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.smartssd.loganalyzer.model.HostCostModel;

/**
 * Kang's Fig. 6.8 and 6.10 on the emulated kang-smartssd drive, from the runs' modelled
 * figures: host-optimized beats the device at 32-byte entries; the device is at least twice
 * as fast at 256 bytes and uses under half the exec-phase energy.
 *
 * <p>The last two hold only while the drive's group-aggregate tasklet costs what Kang's did
 * per entry (one DRAM access for Q1, 003:1057, and up to 10 instructions: the range the cost
 * model's derivation covers). They are checked only then: with a tasklet
 * that charges several times that, offloading cannot pay (Fig. 6.6: beyond about 128
 * accesses per page, 003:1014) and the assumption below says by how much.
 */
class KangShapeTest {
    private static final int N = 20_000;

    @Test
    void hostOptimizedBeatsTheDeviceAt32ByteEntries() throws Exception {
        LogAnalyzer la = SharedDrive.get();
        LogAnalyzer.DriveFile f = la.put("kang.e32", TestTraces.bytes(N, 32, 32), 32);
        RunResult opt = la.run(Query.Q1, Mode.HOST_OPTIMIZED, f);
        RunResult dev = la.run(Query.Q1, Mode.DEVICE, f);
        assertThat(opt.answer()).isEqualTo(dev.answer());
        assertThat(opt.modelledNs()).isLessThan(dev.modelledNs());
        la.remove(f);
    }

    @Test
    void theDeviceIsTwiceAsFastAndUnderHalfTheEnergyAt256ByteEntries() throws Exception {
        LogAnalyzer la = SharedDrive.get();
        LogAnalyzer.DriveFile f = la.put("kang.e256", TestTraces.bytes(N, 256, 256), 256);
        RunResult opt = la.run(Query.Q1, Mode.HOST_OPTIMIZED, f);
        RunResult dev = la.run(Query.Q1, Mode.DEVICE, f);
        la.remove(f);
        assertThat(opt.answer()).isEqualTo(dev.answer());
        double pages = f.bytes() / (double) HostCostModel.PAGE_BYTES;
        double perRecord = (dev.ispNs() - pages * HostCostModel.DEVICE_FW_NS_PER_PAGE) / N;
        double kang = HostCostModel.KANG_Q1_MAX_NS_PER_RECORD;
        assumeTrue(perRecord <= kang, String.format(Locale.ROOT,
                "the drive's group-aggregate costs %.0f ns of ISP time per entry, more than the "
                        + "%.0f of Kang's tasklet (one DRAM access, 003:1057, and up to 10 "
                        + "instructions): device %.2f ms vs host-optimized %.2f ms; see "
                        + "examples/loganalyzer/README.md, known gaps", perRecord, kang,
                dev.modelledNs() / 1e6, opt.modelledNs() / 1e6));
        assertThat(opt.modelledNs()).isGreaterThanOrEqualTo(2 * dev.modelledNs());
        assertThat(dev.energy().totalJoules()).isLessThan(0.5 * opt.energy().totalJoules());
    }
}
