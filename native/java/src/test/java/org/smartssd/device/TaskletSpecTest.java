package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;

class TaskletSpecTest {
    @Test
    void encodesTheSlotsTheJniLayerReads() {
        // WorldCup98: 20-byte records; region = top 3 bits of the server byte at offset 19
        RecordLayout wc = RecordLayout.fixed(20, List.of(Field.of(12, FieldType.U32),
                new Field(19, FieldType.U8, 0, 5, 3)));
        TaskletSpec s = new TaskletSpec(1, wc, new byte[] {1, 2}, 65536, 1_000_000);
        ByteBuffer b = ByteBuffer.allocate(1024).order(ByteOrder.nativeOrder());
        s.encode(77, b, 9);
        long[] expect = {1, 65536, 1_000_000, 77, 1, 0, 0, 2, 20,
            12, 3, 0, 0, 0, 0,
            19, 1, 0, 5, 3, 0};
        for (int i = 0; i < expect.length; i++) {
            assertThat(b.getLong(i * 8)).as("slot %d", i).isEqualTo(expect[i]);
        }
    }

    @Test
    void textLayoutCarriesItsDelimiters() {
        RecordLayout t = RecordLayout.text('\n', ',', 4096, List.of(Field.of(2, FieldType.U64)));
        ByteBuffer b = ByteBuffer.allocate(1024).order(ByteOrder.nativeOrder());
        new TaskletSpec(4, t, null, 4096, 0).encode(5, b, 9);
        assertThat(b.getLong(4 * 8)).isEqualTo(2);    // TEXT
        assertThat(b.getLong(5 * 8)).isEqualTo(10);   // '\n'
        assertThat(b.getLong(6 * 8)).isEqualTo(44);   // ','
        assertThat(b.getLong(8 * 8)).isEqualTo(4096);
    }

    @Test
    void paramsAreCopiedAndBadSpecsRejected() {
        byte[] p = {9};
        TaskletSpec s = new TaskletSpec(1, RecordLayout.lines(100), p, 1, 0);
        p[0] = 0;
        assertThat(s.params()).containsExactly(9);
        assertThatThrownBy(() -> new TaskletSpec(1, RecordLayout.lines(10), null, -1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("budget");
        assertThatThrownBy(() -> RecordLayout.fixed(0, List.of()))
                .hasMessageContaining("record size");
        assertThatThrownBy(() -> RecordLayout.fixed(8, java.util.Collections.nCopies(17,
                Field.of(0, FieldType.U8)))).hasMessageContaining("at most 16");
    }

    @Test
    void inputRangesUseAllOnesForToTheEnd() {
        assertThat(InputRange.whole(3).length()).isEqualTo(0xFFFF_FFFF_FFFF_FFFFL);
        assertThatThrownBy(() -> new InputRange(1, -1, 5))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
