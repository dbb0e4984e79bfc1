package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.junit.jupiter.api.Test;

class ProcStatTest {
    @Test
    void cpuTicksAreUtimePlusStimeCountedFromTheLastParen() {
        // comm "(a) b)" holds spaces and a ')' ; utime 1234, stime 56
        String stat = "4242 ((a) b)) S 1 4242 4242 0 -1 4194560 1000 0 0 0 1234 56 0 0 20 0 "
                + "30 0 12345 1000000 500 18446744073709551615";
        assertThat(ProcStat.cpuTicks(stat)).isEqualTo(1290);
        assertThat(ProcStat.cpuTicks("garbage")).isEqualTo(-1);
        assertThat(ProcStat.cpuTicks("1 (x) S 1 2")).isEqualTo(-1);
    }

    @Test
    void clockTicksComeFromTheAuxiliaryVector() {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
        b.putLong(6).putLong(4096);   // AT_PAGESZ
        b.putLong(17).putLong(250);   // AT_CLKTCK
        b.putLong(0).putLong(0);      // AT_NULL
        assertThat(ProcStat.clockTicks(b.array())).isEqualTo(250);
        assertThat(ProcStat.clockTicks(new byte[16])).isEqualTo(-1);
    }

    @Test
    void thisProcessHasCpuTimeOnLinux() {
        long ns = ProcStat.selfCpuNanos();
        assertThat(ns).isGreaterThan(0);
    }
}
