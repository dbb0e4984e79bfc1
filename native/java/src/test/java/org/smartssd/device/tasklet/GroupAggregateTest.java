package org.smartssd.device.tasklet;

import org.smartssd.device.TaskletFailedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.tasklet.GroupAggregate.Item;
import org.smartssd.device.tasklet.GroupAggregate.Op;

class GroupAggregateTest {
    static final RecordLayout LAYOUT = RecordLayout.fixed(24, List.of(
            Field.of(0, FieldType.U32), Field.of(4, FieldType.U16), Field.of(8, FieldType.I64),
            new Field(16, FieldType.BYTES, 8, 0, 0)));

    @Test
    void paramsAreTheSixteenBytesOfTheHeader() {
        assertThat(GroupAggregate.groupBy(1).value(0).ops(Op.COUNT, Op.SUM).maxGroups(1000)
                .params()).containsExactly(Wire.hex("01 01 00 00 03 000000 e8030000 00000000"));
        assertThat(GroupAggregate.groupBy().params())
                .containsExactly(Wire.hex("00 00 00 00 01 000000 00000000 00000000"));
        assertThat(GroupAggregate.groupBy(2, 5).value(3).ops(Op.MIN, Op.MAX).params())
                .containsExactly(Wire.hex("02 02 05 03 0c 000000 00000000 00000000"));
    }

    @Test
    void specChecksFieldsAgainstTheLayout() {
        TaskletSpec s = GroupAggregate.groupBy(0, 1).value(2).ops(Op.SUM).spec(LAYOUT, 4096, 7);
        assertThat(s.taskletId()).isEqualTo(1);
        assertThat(s.memoryBudget()).isEqualTo(4096);
        assertThat(s.stepLimit()).isEqualTo(7);
        assertThat(s.params()).containsExactly(Wire.hex("02 00 01 02 02 000000 00000000 00000000"));
        assertThatThrownBy(() -> GroupAggregate.groupBy(3).spec(LAYOUT, 4096, 0))
                .hasMessageContaining("key field 3 must be an integer field");
        assertThatThrownBy(() -> GroupAggregate.groupBy(0).value(9).ops(Op.MAX)
                .spec(LAYOUT, 4096, 0)).hasMessageContaining("past the layout's 4 fields");
        assertThatThrownBy(() -> GroupAggregate.groupBy(0, 1, 2, 3, 0))
                .hasMessageContaining("at most 4");
        assertThat(GroupAggregate.groupBy(3, 0, 1, 2).params()).containsExactly(
                Wire.hex("04 03 00 00 01 01 02 00 00000000 00000000"));
        assertThat(GroupAggregate.parse(GroupAggregate.groupBy(3, 0, 1).params()).keys())
                .containsExactly(3, 0, 1);
        assertThat(GroupAggregate.groupBy(1, 0, 1).spec(LAYOUT, 4096, 0).params()[5])
                .isEqualTo((byte) 1);
        assertThatThrownBy(() -> GroupAggregate.groupBy(0, 2, 0, 1).spec(LAYOUT, 4096, 0))
                .hasMessageContaining("take 112 bits together");
        assertThatThrownBy(() -> GroupAggregate.groupBy(0).ops(Op.SUM).params())
                .hasMessageContaining("value field");
        assertThat(GroupAggregate.groupBy(0).value(2).signedValue(LAYOUT)).isTrue();
        assertThat(GroupAggregate.groupBy(2).value(0).signedValue(LAYOUT)).isFalse();
    }

    @Test
    void decodesItemsAndTrailer() throws Exception {
        byte[] out = new Wire()
                .u64(7).u64(0).u64(3).u64(60).u64(10).u64(30)
                .u64(9).u64(0).u64(1).u64(-4).u64(-4).u64(-4)
                .trailer(1, 4, 2, 1).done();
        GroupAggregate.Output o = GroupAggregate.decode(out);
        assertThat(o.items()).containsExactly(new Item(7, 0, 3, 60, 10, 30),
                new Item(9, 0, 1, -4, -4, -4));
        assertThat(o.trailer().recordsIn()).isEqualTo(4);
        assertThat(o.spills()).isEqualTo(1);
    }

    @Test
    void refusesOutputsThatDoNotAddUp() {
        byte[] item = new Wire().u64(1).u64(0).u64(1).u64(0).u64(0).u64(0).done();
        assertThatThrownBy(() -> GroupAggregate.decode(new byte[10]))
                .isInstanceOf(TaskletFailedException.class).hasMessageContaining("no trailer");
        assertThatThrownBy(() -> GroupAggregate.decode(new Wire().bytes(item).u64(0).u64(0)
                .u64(0).u64(0).done())).hasMessageContaining("without a valid trailer");
        assertThatThrownBy(() -> GroupAggregate.decode(new Wire().bytes(item)
                .trailer(2, 1, 1, 0).done())).hasMessageContaining("names tasklet 2");
        assertThatThrownBy(() -> GroupAggregate.decode(new Wire().bytes(item)
                .trailer(1, 1, 2, 0).done())).hasMessageContaining("announces 2");
        assertThatThrownBy(() -> GroupAggregate.decode(new Wire().bytes(item).u8(0)
                .trailer(1, 1, 1, 0).done())).hasMessageContaining("not a multiple of 48");
    }

    @Test
    void mergesPartialsExactly() {
        // signed value field: -5 is the min; unsigned: 0xff..fb is the max
        Item a = new Item(1, 2, 2, Long.MAX_VALUE, -5, 3);
        Item b = new Item(1, 2, 3, 1, 3, -5);
        Item signed = a.merge(b, true);
        assertThat(signed).isEqualTo(new Item(1, 2, 5, Long.MIN_VALUE, -5, 3));
        Item unsigned = a.merge(b, false);
        assertThat(unsigned.min()).isEqualTo(3);
        assertThat(unsigned.max()).isEqualTo(-5);

        GroupAggregate.Merger m = new GroupAggregate.Merger(false)
                .addAll(List.of(new Item(4, 0, 1, 10, 10, 10), new Item(2, 0, 2, 5, 1, 4),
                        new Item(4, 0, 2, 7, 2, 5)));
        assertThat(m.result()).containsExactly(
                java.util.Map.entry(new GroupKey(2, 0), new Item(2, 0, 2, 5, 1, 4)),
                java.util.Map.entry(new GroupKey(4, 0), new Item(4, 0, 3, 17, 2, 10)));
    }

    @Test
    void parseIsTheInverseOfParams() {
        GroupAggregate g = GroupAggregate.parse(Wire.hex("02 04 01 03 0e 000000 10000000 00000000"));
        assertThat(g.keys()).containsExactly(4, 1);
        assertThat(g.value()).isEqualTo(3);
        assertThat(g.ops()).containsExactly(Op.SUM, Op.MIN, Op.MAX);
        assertThat(g.maxGroups()).isEqualTo(16);
        assertThat(g.params()).containsExactly(Wire.hex("02 04 01 03 0e 000000 10000000 00000000"));
        assertThatThrownBy(() -> GroupAggregate.parse(new byte[15])).hasMessageContaining("16 bytes");
        assertThatThrownBy(() -> GroupAggregate.parse(Wire.hex("00 00 00 00 10 000000 00000000 00000000")))
                .hasMessageContaining("ops 0x10");
        assertThatThrownBy(() -> GroupAggregate.parse(Wire.hex("00 00 00 00 01 000100 00000000 00000000")))
                .hasMessageContaining("reserved");
    }
}
