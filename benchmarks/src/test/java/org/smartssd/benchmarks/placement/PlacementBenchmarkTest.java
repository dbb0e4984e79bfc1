package org.smartssd.benchmarks.placement;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.smartssd.scan.Placement;

/** The modelled job time charges the host's reads to the drive's controller. */
class PlacementBenchmarkTest {
    private static PlacementBenchmark.Run run(long deviceNs, long hostNs, long hostPages) {
        return new PlacementBenchmark.Run(Placement.AUTO, null, deviceNs, hostNs, 50_000, 1_000,
                0, 10, 10, hostPages, 15_170, 0, 0, 0, null);
    }

    @Test
    void hostReadsOccupyTheController() {
        // 100 us of tasklet work and 1,000 host pages at 15,170 ns: the controller (15.27 ms)
        // binds, not the host side (12 ms)
        PlacementBenchmark.Run r = run(100_000, 12_000_000, 1_000);
        assertThat(r.controllerNs()).isEqualTo(100_000 + 1_000 * 15_170L);
        assertThat(r.modelledNs()).isEqualTo(100_000 + 1_000 * 15_170L + 1_000);
        assertThat(r.hostReadsFreeNs()).isEqualTo(12_000_000 + 1_000);
    }

    @Test
    void withoutHostReadsTheControllerIsTheTasklets() {
        PlacementBenchmark.Run r = run(30_000_000, 12_000_000, 0);
        assertThat(r.modelledNs()).isEqualTo(r.hostReadsFreeNs()).isEqualTo(30_001_000);
    }
}
