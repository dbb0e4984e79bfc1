package org.smartssd.device.tasklet;

import org.smartssd.device.TaskletFailedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.tasklet.TopN.Item;

class TopNTest {
    static final RecordLayout LAYOUT = RecordLayout.fixed(16, List.of(
            Field.of(0, FieldType.U32), Field.of(4, FieldType.I32), Field.of(8, FieldType.U64),
            new Field(12, FieldType.BYTES, 4, 0, 0)));

    @Test
    void paramsCarryTheProjection() {
        assertThat(TopN.largest(10, 2).groupBy(0).project(0, 3).maxGroups(300).params())
                .containsExactly(Wire.hex("01 00 00 02 00 02 0a00 2c010000 00 03"));
        assertThat(TopN.smallest(1024, 1).params())
                .containsExactly(Wire.hex("00 00 00 01 01 00 0004 00000000"));
        assertThat(TopN.largest(1, 2).groupBy(1, 0).params())
                .containsExactly(Wire.hex("02 01 00 02 00 00 0100 00000000"));
        assertThatThrownBy(() -> TopN.largest(0, 1)).hasMessageContaining("1..1024");
        assertThatThrownBy(() -> TopN.largest(1025, 1)).hasMessageContaining("1..1024");
        assertThatThrownBy(() -> TopN.largest(3, 3).spec(LAYOUT, 4096, 0))
                .hasMessageContaining("value field 3 must be an integer");
        assertThat(TopN.largest(3, 2).spec(LAYOUT, 4096, 0).taskletId()).isEqualTo(2);
    }

    @Test
    void decodesHeadersAndPayloads() throws Exception {
        byte[] out = new Wire()
                .u64(5).u64(0).u64(900).u32(3).u32(0).bytes(new byte[] {1, 2, 3})
                .u64(5).u64(0).u64(800).u32(0).u32(0)
                .trailer(2, 50, 2, 0).done();
        TopN.Output o = TopN.decode(out);
        assertThat(o.items()).containsExactly(new Item(5, 0, 900, new byte[] {1, 2, 3}),
                new Item(5, 0, 800, new byte[0]));
        assertThat(o.trailer().recordsIn()).isEqualTo(50);
        byte[] cut = new Wire().u64(5).u64(0).u64(900).u32(30).u32(0).trailer(2, 1, 1, 0).done();
        assertThatThrownBy(() -> TopN.decode(cut)).isInstanceOf(TaskletFailedException.class)
                .hasMessageContaining("runs past");
    }

    @Test
    void mergeKeepsTheBestNWithTiesToTheFirstAdded() {
        TopN.Merger m = new TopN.Merger(2, false, true);
        m.add(new Item(1, 0, 5, new byte[] {'a'}));
        m.add(new Item(1, 0, -7, new byte[] {'b'}));
        m.add(new Item(2, 0, 1, new byte[] {'c'}));
        m.add(new Item(1, 0, 5, new byte[] {'d'}));   // ties with 'a', added later
        m.add(new Item(1, 0, 9, new byte[] {'e'}));
        assertThat(m.result().get(new GroupKey(1, 0))).extracting(i -> (char) i.payload()[0])
                .containsExactly('e', 'a');
        assertThat(m.result().get(new GroupKey(2, 0))).hasSize(1);

        // unsigned U64 values: 0xff..ff is the largest; smallest keeps 0 first
        TopN.Merger u = new TopN.Merger(1, false, false);
        u.add(new Item(0, 0, 3, new byte[0])).add(new Item(0, 0, -1, new byte[0]));
        assertThat(u.result().get(GroupKey.NONE).get(0).value()).isEqualTo(-1);
        TopN.Merger s = new TopN.Merger(2, true, true);
        s.add(new Item(0, 0, 3, new byte[0])).add(new Item(0, 0, -1, new byte[0]))
                .add(new Item(0, 0, 0, new byte[0]));
        assertThat(s.result().get(GroupKey.NONE)).extracting(Item::value).containsExactly(-1L, 0L);
    }

    @Test
    void payloadProjectionDecodes() throws Exception {
        byte[] payload = new Wire().u64(42).u16(4).bytes(new byte[] {'G', 'E', 'T', ' '}).done();
        List<Object> row = new Projection(LAYOUT, 0, 3).decode(payload);
        assertThat(row.get(0)).isEqualTo(42L);
        assertThat((byte[]) row.get(1)).containsExactly('G', 'E', 'T', ' ');
        assertThatThrownBy(() -> new Projection(LAYOUT, 0).decode(payload))
                .hasMessageContaining("follow the projected fields");
    }

    @Test
    void parseIsTheInverseOfParams() {
        byte[] p = Wire.hex("02 01 00 02 01 02 0a00 2c010000 00 03");
        TopN t = TopN.parse(p);
        assertThat(t.n()).isEqualTo(10);
        assertThat(t.isSmallest()).isTrue();
        assertThat(t.keys()).containsExactly(1, 0);
        assertThat(t.projection()).containsExactly(0, 3);
        assertThat(t.params()).containsExactly(p);
        assertThatThrownBy(() -> TopN.parse(Wire.hex("00 00 00 02 00 01 0a00 00000000")))
                .hasMessageContaining("13 bytes");
        assertThatThrownBy(() -> TopN.parse(Wire.hex("00 00 00 02 00 00 0000 00000000")))
                .hasMessageContaining("1..1024");
    }
}
