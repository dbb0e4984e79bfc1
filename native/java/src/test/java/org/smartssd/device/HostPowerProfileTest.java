package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import org.junit.jupiter.api.Test;

class HostPowerProfileTest {
    @Test
    void defaultsAreKangFigure610() {
        HostPowerProfile p = HostPowerProfile.KANG_2014;
        assertThat(p.idleWatts()).isEqualTo(44.0);
        assertThat(p.busyWatts()).isEqualTo(35.0);
        assertThat(p.cores()).isEqualTo(4);
        // all four cores busy for 10 s: 440 J idle + 350 J busy = 790 J (79 W, inside Kang's
        // 75-82 W)
        assertThat(p.joules(10, 40)).isCloseTo(790.0, offset(1e-9));
    }

    @Test
    void systemPropertiesOverride() {
        System.setProperty("smartssd.host.idleWatts", "10");
        System.setProperty("smartssd.host.busyWatts", "20");
        System.setProperty("smartssd.host.cores", "2");
        try {
            HostPowerProfile p = HostPowerProfile.fromSystemProperties();
            assertThat(p).isEqualTo(new HostPowerProfile(10, 20, 2));
            assertThat(p.joules(1, 1)).isCloseTo(20.0, offset(1e-9));
            System.setProperty("smartssd.host.cores", "four");
            assertThatThrownBy(HostPowerProfile::fromSystemProperties)
                    .hasMessageContaining("smartssd.host.cores");
        } finally {
            System.clearProperty("smartssd.host.idleWatts");
            System.clearProperty("smartssd.host.busyWatts");
            System.clearProperty("smartssd.host.cores");
        }
    }

    @Test
    void nonsenseIsRejected() {
        assertThatThrownBy(() -> new HostPowerProfile(-1, 1, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HostPowerProfile(1, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HostPowerProfile(Double.NaN, 1, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
