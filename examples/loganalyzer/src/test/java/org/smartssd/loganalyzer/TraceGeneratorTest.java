package org.smartssd.loganalyzer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class TraceGeneratorTest {
    private static final int N = 200_000;

    @Test
    void sameSeedSameBytesOtherSeedOtherBytes() {
        byte[] a = TestTraces.bytes(5_000, 42, 32);
        assertThat(TestTraces.bytes(5_000, 42, 32)).isEqualTo(a);
        assertThat(TestTraces.bytes(5_000, 43, 32)).isNotEqualTo(a);
    }

    @ParameterizedTest
    @ValueSource(ints = {20, 32, 64, 128, 256})
    void entriesArePaddedWithZerosAfterTheRecordAndKeepTheRecord(int es) {
        byte[] padded = TestTraces.bytes(1_000, 7, es);
        byte[] raw = TestTraces.bytes(1_000, 7, 20);
        assertThat(padded).hasSize(1_000 * es);
        for (int i = 0; i < 1_000; i++) {
            for (int k = 0; k < 20; k++) {
                assertThat(padded[i * es + k]).isEqualTo(raw[i * 20 + k]);
            }
            for (int k = 20; k < es; k++) {
                assertThat(padded[i * es + k]).isZero();
            }
        }
    }

    @Test
    void objectPopularityIsZipf() {
        byte[] t = TestTraces.bytes(N, 1, 20);
        Map<Long, Integer> perObject = new HashMap<>();
        for (int off = 0; off < t.length; off += 20) {
            perObject.merge(be32(t, off + 8), 1, Integer::sum);
        }
        List<Integer> counts = new ArrayList<>(perObject.values());
        counts.sort((x, y) -> y - x);
        // Zipf s = 1 over 20000 objects: the top object has 1/H(20000) = 9.5 % of requests,
        // the top 1 % of objects (200) about 56 %; a uniform choice would give 0.005 % and 1 %
        double h = 0;
        for (int i = 1; i <= 20_000; i++) {
            h += 1.0 / i;
        }
        assertThat(counts.get(0) / (double) N).isCloseTo(1 / h, org.assertj.core.data.Offset
                .offset(0.01));
        long top200 = counts.stream().limit(200).mapToLong(Integer::longValue).sum();
        double h200 = 0;
        for (int i = 1; i <= 200; i++) {
            h200 += 1.0 / i;
        }
        assertThat(top200 / (double) N).isCloseTo(h200 / h, org.assertj.core.data.Offset
                .offset(0.02));
        // rank 1 about twice rank 2 (Zipf s = 1)
        assertThat(counts.get(0) / (double) counts.get(1)).isBetween(1.6, 2.5);
    }

    @Test
    void arrivalsAreBurstyAndOrdered() {
        byte[] t = TestTraces.bytes(N, 3, 20);
        TreeMap<Long, Integer> perSecond = new TreeMap<>();
        long prev = 0;
        for (int off = 0; off < t.length; off += 20) {
            long ts = be32(t, off);
            assertThat(ts).isGreaterThanOrEqualTo(prev);
            prev = ts;
            perSecond.merge(ts, 1, Integer::sum);
        }
        assertThat(perSecond.firstKey()).isEqualTo(TraceGenerator.DEFAULT_START);
        // a Poisson process has variance/mean 1 per second; calm/burst switching gives far more
        long first = perSecond.firstKey();
        long last = perSecond.lastKey();
        double mean = N / (double) (last - first + 1);
        double var = 0;
        for (long s = first; s <= last; s++) {
            double d = perSecond.getOrDefault(s, 0) - mean;
            var += d * d;
        }
        var /= (last - first + 1);
        assertThat(var / mean).isGreaterThan(5);
    }

    @Test
    void mixesLookLikeAWebLog() {
        byte[] t = TestTraces.bytes(N, 5, 20);
        int images = 0;
        int ok = 0;
        int notModified = 0;
        int get = 0;
        int[] regions = new int[8];
        Map<Long, Integer> clientRegion = new HashMap<>();
        for (int off = 0; off < t.length; off += 20) {
            int type = t[off + 18] & 0xff;
            int status = t[off + 17] & 0x3f;
            int region = (t[off + 19] & 0xff) >> 5;
            images += type == FileType.IMAGE ? 1 : 0;
            ok += status == 2 ? 1 : 0;
            notModified += status == 13 ? 1 : 0;
            get += (t[off + 16] & 0xff) == 0 ? 1 : 0;
            regions[region]++;
            Integer before = clientRegion.put(be32(t, off + 4), region);
            assertThat(before == null || before == region).as("a client stays in its region")
                    .isTrue();
            if (status == 13) {
                assertThat(be32(t, off + 12)).isEqualTo(0xffffffffL);
            }
            assertThat(type).isLessThanOrEqualTo(FileType.OTHER);
            assertThat((t[off + 17] & 0xff) >> 6).isBetween(0, 2);
        }
        assertThat(images / (double) N).isBetween(0.6, 0.98);
        assertThat(ok / (double) N).isBetween(0.7, 0.85);
        assertThat(notModified / (double) N).isBetween(0.15, 0.25);
        assertThat(get / (double) N).isGreaterThan(0.99);
        for (int r = 0; r < 4; r++) {
            assertThat(regions[r]).as("region %d", r).isGreaterThan(N / 20);
        }
        for (int r = 4; r < 8; r++) {
            assertThat(regions[r]).isZero();
        }
    }

    @Test
    void badOptionsAreRefusedWithTheReason() {
        assertThatThrownBy(() -> TraceGenerator.Options.of(10, 1, 19))
                .hasMessageContaining("entry size 19");
        assertThatThrownBy(() -> TraceGenerator.Options.of(-1, 1, 32))
                .hasMessageContaining("negative");
    }

    private static long be32(byte[] b, int off) {
        return (b[off] & 0xffL) << 24 | (b[off + 1] & 0xffL) << 16 | (b[off + 2] & 0xffL) << 8
                | (b[off + 3] & 0xffL);
    }
}
