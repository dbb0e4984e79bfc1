package org.smartssd.device.tasklet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.smartssd.device.tasklet.Predicate.and;
import static org.smartssd.device.tasklet.Predicate.contains;
import static org.smartssd.device.tasklet.Predicate.eq;
import static org.smartssd.device.tasklet.Predicate.ge;
import static org.smartssd.device.tasklet.Predicate.gt;
import static org.smartssd.device.tasklet.Predicate.le;
import static org.smartssd.device.tasklet.Predicate.lt;
import static org.smartssd.device.tasklet.Predicate.ne;
import static org.smartssd.device.tasklet.Predicate.not;
import static org.smartssd.device.tasklet.Predicate.or;
import static org.smartssd.device.tasklet.Predicate.prefix;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.tasklet.Filter.PageItem;

class FilterTest {
    static final RecordLayout FIXED = RecordLayout.fixed(8, List.of(Field.of(0, FieldType.U16),
            Field.of(2, FieldType.I32), new Field(6, FieldType.BYTES, 2, 0, 0)));
    static final RecordLayout TEXT = RecordLayout.text('\n', ' ', 256,
            List.of(Field.of(0, FieldType.BYTES), Field.of(1, FieldType.U64)));

    @Test
    void treeIsPrefixOrderLittleEndian() {
        assertThat(and(eq(1, 404), not(prefix(2, "GET"))).encode()).containsExactly(Wire.hex(
                "01 02  10 01 9401000000000000  03 21 02 0300 474554"));
        assertThat(or(ne(0, -1), lt(0, 2), le(0, 3), gt(0, 4), ge(0, 5), contains(2, ""))
                .encode()).containsExactly(Wire.hex("02 06"
                + " 11 00 ffffffffffffffff 12 00 0200000000000000 13 00 0300000000000000"
                + " 14 00 0400000000000000 15 00 0500000000000000 22 02 0000"));
    }

    @Test
    void paramsHoldModeProjectionLimitAndTree() {
        assertThat(Filter.project(eq(0, 7), 1, 2).limit(100).params()).containsExactly(Wire.hex(
                "01 02 0a00 64000000 01 02  10 00 0700000000000000"));
        assertThat(Filter.count(null).params()).containsExactly(Wire.hex("03 00 0000 00000000"));
        assertThat(Filter.pages(gt(1, 0)).params()).startsWith(Wire.hex("02 00 0a00 00000000"));
        assertThat(Filter.records(null).spec(FIXED, 4096, 0).taskletId()).isEqualTo(3);
    }

    @Test
    void refusesTreesTheDriveWouldRefuse() {
        Predicate deep = eq(0, 1);
        for (int i = 0; i < 16; i++) {
            deep = not(deep);
        }
        Predicate tooDeep = deep;
        assertThat(tooDeep.depth()).isEqualTo(17);
        assertThatThrownBy(tooDeep::encode).hasMessageContaining("at most 16 levels");
        Predicate[] many = new Predicate[128];
        java.util.Arrays.fill(many, eq(0, 1));
        assertThatThrownBy(() -> or(many).encode()).hasMessageContaining("at most 128 nodes");
        assertThatThrownBy(() -> and()).hasMessageContaining("1..255 children");
        assertThatThrownBy(() -> Filter.records(eq(2, 1)).spec(FIXED, 4096, 0))
                .hasMessageContaining("predicate field 2 must be an integer field");
        assertThatThrownBy(() -> Filter.records(prefix(0, "x")).spec(FIXED, 4096, 0))
                .hasMessageContaining("must be a BYTES field");
        assertThatThrownBy(() -> Filter.project(null)).hasMessageContaining("1..16 fields");
    }

    @Test
    void decodesEachMode() throws Exception {
        byte[] recs = new Wire().bytes(Wire.hex("0001 00000002 6162 0003 fffffffe 6364"))
                .trailer(3, 9, 2, 2).done();
        Filter.Output r = Filter.records(null).decode(recs, FIXED);
        assertThat(r.records()).hasSize(2);
        assertThat(r.records().get(1)).containsExactly(Wire.hex("0003fffffffe6364"));
        assertThat(r.matches()).isEqualTo(2);

        byte[] lines = new Wire().bytes("GET 1\nPUT 2\n".getBytes(StandardCharsets.US_ASCII))
                .trailer(3, 5, 2, 2).done();
        assertThat(Filter.records(null).decode(lines, TEXT).records())
                .extracting(b -> new String(b, StandardCharsets.US_ASCII))
                .containsExactly("GET 1", "PUT 2");

        byte[] rows = new Wire().u64(-2).u16(2).bytes(new byte[] {'c', 'd'})
                .trailer(3, 9, 1, 1).done();
        Filter.Output p = Filter.project(null, 1, 2).decode(rows, FIXED);
        assertThat(p.rows().get(0).get(0)).isEqualTo(-2L);
        assertThat((byte[]) p.rows().get(0).get(1)).containsExactly('c', 'd');

        byte[] pages = new Wire().u64(64).u64(9).u64(0).u64(-1).u64(9).u64(8192)
                .trailer(3, 100, 2, 2).done();
        Filter.Output g = Filter.pages(null).decode(pages, FIXED);
        assertThat(g.pages()).containsExactly(new PageItem(64, 9, 0), new PageItem(-1, 9, 8192));
        assertThat(g.pages().get(1).inline()).isTrue();
        assertThat(Filter.distinctPages(List.of(new PageItem(64, 9, 0), new PageItem(80, 9, 8192),
                new PageItem(64, 9, 0)))).containsExactly(new PageItem(64, 9, 0),
                new PageItem(80, 9, 8192));

        Filter.Output c = Filter.count(null).decode(new Wire().trailer(3, 1000, 0, 17).done(),
                FIXED);
        assertThat(c.matches()).isEqualTo(17);
        assertThat(c.trailer().recordsIn()).isEqualTo(1000);
        assertThatThrownBy(() -> Filter.records(null).decode(new Wire().bytes(new byte[5])
                .trailer(3, 1, 1, 1).done(), FIXED)).hasMessageContaining("multiple of the record");
    }

    @Test
    void parseIsTheInverseOfParams() {
        Filter f = Filter.project(or(and(eq(1, -3), not(prefix(2, "ab"))), contains(2, "x")), 2, 0)
                .limit(9);
        Filter back = Filter.parse(f.params());
        assertThat(back.mode()).isEqualTo(Filter.Mode.PROJECT);
        assertThat(back.projection()).containsExactly(2, 0);
        assertThat(back.limit()).isEqualTo(9);
        assertThat(back.where()).isEqualTo(f.where());
        assertThat(back.params()).containsExactly(f.params());
        assertThat(Filter.parse(Wire.hex("03 00 0000 00000000")).where()).isNull();
        assertThatThrownBy(() -> Filter.parse(Wire.hex("04 00 0000 00000000")))
                .hasMessageContaining("mode 4");
        assertThatThrownBy(() -> Filter.parse(Wire.hex("00 00 0200 00000000 10 00")))
                .hasMessageContaining("ends inside a node");
        assertThatThrownBy(() -> Filter.parse(Wire.hex("00 00 0100 00000000 7f")))
                .hasMessageContaining("unknown predicate op 0x7f");
        assertThatThrownBy(() -> Filter.parse(Wire.hex("00 01 0000 00000000 00")))
                .hasMessageContaining("RECORDS with 1 projected");
    }
}
