package org.smartssd.device.tasklet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.smartssd.device.RecordLayout;

class GrepAndProbeTest {
    @Test
    void grepParamsAndOutput() throws Exception {
        assertThat(Grep.count("hit").params()).containsExactly(Wire.hex("00 00 0300 686974"));
        assertThat(Grep.lines("").params()).containsExactly(Wire.hex("01 00 0000"));
        assertThatThrownBy(() -> Grep.count("x".repeat(1025))).hasMessageContaining("1024");
        assertThatThrownBy(() -> Grep.count("x").spec(RecordLayout.fixed(4, List.of()), 1, 0))
                .hasMessageContaining("TEXT");
        RecordLayout lines = RecordLayout.lines(100);
        byte[] out = new Wire().bytes("a hit\nhit b\n".getBytes(StandardCharsets.US_ASCII))
                .trailer(4, 10, 2, 2).done();
        Grep.Output o = Grep.lines("hit").decode(out, lines);
        assertThat(o.lines()).isEqualTo(10);
        assertThat(o.matches()).isEqualTo(2);
        assertThat(o.matchingLines()).extracting(b -> new String(b, StandardCharsets.US_ASCII))
                .containsExactly("a hit", "hit b");
        assertThat(Grep.count("hit").decode(new Wire().trailer(4, 10, 0, 3).done(), lines)
                .matchingLines()).isEmpty();
        assertThatThrownBy(() -> Grep.lines("x").decode(new Wire().bytes(new byte[] {'a'})
                .trailer(4, 1, 1, 1).done(), lines)).hasMessageContaining("after the last");
    }

    @Test
    void probeParamsAndOutput() throws Exception {
        assertThat(new DramProbe(128, 0xdeadbeef).params())
                .containsExactly(Wire.hex("80000000 efbeadde"));
        assertThatThrownBy(() -> new DramProbe(1_048_577, 0)).hasMessageContaining("0..1048576");
        DramProbe.Output o = DramProbe.decode(new Wire().trailer(5, 12, 0, 7).done());
        assertThat(o.pages()).isEqualTo(12);
        assertThat(o.matchingLoads()).isEqualTo(7);
        assertThatThrownBy(() -> DramProbe.decode(new Wire().u8(0).trailer(5, 1, 0, 0).done()))
                .hasMessageContaining("before its trailer");
        assertThat(BuiltinTasklet.of(5)).isEqualTo(BuiltinTasklet.DRAM_PROBE);
        assertThatThrownBy(() -> BuiltinTasklet.of(9)).hasMessageContaining("id 9");
    }

    @Test
    void grepParseIsTheInverseOfParams() {
        Grep g = Grep.parse(Wire.hex("01 00 0300 686974"));
        assertThat(g.emitsLines()).isTrue();
        assertThat(new String(g.pattern(), StandardCharsets.US_ASCII)).isEqualTo("hit");
        assertThatThrownBy(() -> Grep.parse(Wire.hex("02 00 0000"))).hasMessageContaining("flags 0x2");
        assertThatThrownBy(() -> Grep.parse(Wire.hex("00 00 0500 6869"))).hasMessageContaining("9 bytes");
    }
}
