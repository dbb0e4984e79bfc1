package org.smartssd.device.tasklet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.TaskletSpec;

/**
 * The params of a bpf run ({@code struct ss_bt_bpf_params}: name length, name at 8, six
 * arguments at 72, out size, group slots, top-N and instruction budget at 120..135) read
 * back by {@link BpfProgram#parse}, and {@link BpfProgram#nameIn} of specs of other kinds.
 */
class BpfProgramTest {
    private static final RecordLayout LAYOUT = RecordLayout.fixed(16,
            List.of(Field.of(0, FieldType.I32)));

    @Test
    void parseReadsBackWhatParamsWrote() {
        BpfProgram p = new BpfProgram("sensor_stats.v2", new long[] {-1, 2, Long.MAX_VALUE},
                4096, 1024, 7, 300);
        byte[] params = p.params();
        ByteBuffer b = ByteBuffer.wrap(params).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(params[0]).isEqualTo((byte) 15);
        assertThat(b.getLong(72)).isEqualTo(-1);
        assertThat(b.getInt(124)).isEqualTo(1024);

        BpfProgram q = BpfProgram.parse(params);
        assertThat(q.name()).isEqualTo("sensor_stats.v2");
        assertThat(q.args()).containsExactly(-1, 2, Long.MAX_VALUE, 0, 0, 0);
        assertThat(List.of(q.outSize(), q.groupSlots(), q.topN(), q.insnBudget()))
                .containsExactly(4096, 1024, 7, 300);
        assertThat(BpfProgram.nameIn(p.spec(LAYOUT, 0))).isEqualTo("sensor_stats.v2");
    }

    @Test
    void otherTaskletsNameNoProgramAndBadParamsAreRefused() {
        TaskletSpec grep = new TaskletSpec(BuiltinTasklet.GREP.id(), LAYOUT, new byte[8], 0, 0);
        assertThat(BpfProgram.nameIn(grep)).isNull();
        assertThatThrownBy(() -> BpfProgram.parse(new byte[10]))
                .hasMessageContaining("10 bytes, not 136");
        byte[] params = BpfProgram.of("x").params();
        params[0] = 64;
        assertThatThrownBy(() -> BpfProgram.parse(params)).hasMessageContaining("64 characters");
    }
}
