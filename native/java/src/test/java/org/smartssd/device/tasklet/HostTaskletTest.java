package org.smartssd.device.tasklet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.smartssd.device.tasklet.Predicate.and;
import static org.smartssd.device.tasklet.Predicate.gt;
import static org.smartssd.device.tasklet.Predicate.lt;
import static org.smartssd.device.tasklet.Predicate.not;
import static org.smartssd.device.tasklet.Predicate.prefix;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.TaskletSpec;

/**
 * The host versions against plain Java computed here from the same bytes: filter,
 * group-aggregate and top-N outputs decode (with the drive's decoders) to the answers (the
 * records they are given: {@link SplitRecordsTest}). The Spark connector's placement test compares
 * them with the drive's runs on an emulated drive.
 */
class HostTaskletTest {
    static final RecordLayout FIXED = RecordLayout.fixed(12, List.of(Field.of(0, FieldType.U16),
            Field.of(2, FieldType.I32), new Field(6, FieldType.BYTES, 4, 0, 0),
            new Field(10, FieldType.U16, 0, 4, 3)));
    static final RecordLayout TEXT = RecordLayout.text('\n', ',', 64,
            List.of(Field.of(0, FieldType.BYTES), Field.of(1, FieldType.I32)));

    static byte[] fixedRecords(int n, long seed) {
        Random r = new Random(seed);
        ByteBuffer b = ByteBuffer.allocate(n * 12);
        for (int i = 0; i < n; i++) {
            b.putShort((short) r.nextInt(1 << 16)).putInt(r.nextInt(2001) - 1000)
                    .put((r.nextBoolean() ? "GET" : "PUT").getBytes(StandardCharsets.US_ASCII))
                    .put((byte) ('0' + i % 10)).putShort((short) r.nextInt(1 << 16));
        }
        return b.array();
    }

    static List<byte[]> cut(RecordLayout l, byte[] data, long start, long len) throws IOException {
        List<byte[]> out = new ArrayList<>();
        SplitRecords.cut(l, data.length, start, len, SplitRecords.Input.of(data),
                (b, off, n) -> out.add(Arrays.copyOfRange(b, off, off + n)));
        return out;
    }

    static byte[] run(TaskletSpec spec, byte[] data, long start, long len) throws IOException {
        HostTasklet h = HostTasklet.of(spec);
        SplitRecords.cut(spec.layout(), data.length, start, len, SplitRecords.Input.of(data),
                h::accept);
        return h.finish();
    }

    @Test
    void filterMatchesJava() throws IOException {
        byte[] data = fixedRecords(500, 2);
        Predicate where = and(gt(1, -100), not(prefix(2, "PUT")), lt(3, 6));
        Filter f = Filter.project(where, 1, 2, 3);
        byte[] out = run(f.spec(FIXED, 4096, 0), data, 0, data.length);
        Filter.Output o = f.decode(out, FIXED);
        List<String> expected = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(data);
        for (int i = 0; i < 500; i++) {
            int v = b.getInt(i * 12 + 2);
            String s = new String(data, i * 12 + 6, 4, StandardCharsets.US_ASCII);
            int bits = ((b.getShort(i * 12 + 10) & 0xffff) >> 4) & 7;
            if (v > -100 && !s.startsWith("PUT") && bits < 6) {
                expected.add(v + "/" + s + "/" + bits);
            }
        }
        List<String> got = o.rows().stream().map(r -> r.get(0) + "/" + new String(
                (byte[]) r.get(1), StandardCharsets.US_ASCII) + "/" + r.get(2)).toList();
        assertThat(got).isEqualTo(expected);
        assertThat(o.trailer().recordsIn()).isEqualTo(500);
        assertThat(o.matches()).isEqualTo(expected.size());

        Filter limited = Filter.count(where).limit(3);
        assertThat(limited.decode(run(limited.spec(FIXED, 4096, 0), data, 0,
                data.length), FIXED).matches()).isEqualTo(3);
    }

    @Test
    void groupAggregateAndTopNMatchJava() throws IOException {
        byte[] data = fixedRecords(800, 3);
        GroupAggregate g = GroupAggregate.groupBy(3).value(1).ops(GroupAggregate.Op.COUNT,
                GroupAggregate.Op.SUM, GroupAggregate.Op.MIN, GroupAggregate.Op.MAX);
        byte[] params = WhereParams.groupAggregate(g, prefix(2, "GET"));
        TaskletSpec spec = new TaskletSpec(
                BuiltinTasklet.GROUP_AGGREGATE.id(), FIXED, params, 4096, 0);
        Map<GroupKey, GroupAggregate.Item> got = new GroupAggregate.Merger(true).addAll(
                GroupAggregate.decode(run(spec, data, 0, data.length)).items())
                .result();
        Map<Long, long[]> expected = new TreeMap<>();
        ByteBuffer b = ByteBuffer.wrap(data);
        List<long[]> ranked = new ArrayList<>();
        for (int i = 0; i < 800; i++) {
            long v = b.getInt(i * 12 + 2);
            long k = ((b.getShort(i * 12 + 10) & 0xffff) >> 4) & 7;
            ranked.add(new long[] {v, i});
            if (data[i * 12 + 6] != 'G') {
                continue;
            }
            long[] a = expected.computeIfAbsent(k, x -> new long[] {0, 0, Long.MAX_VALUE,
                    Long.MIN_VALUE});
            a[0]++;
            a[1] += v;
            a[2] = Math.min(a[2], v);
            a[3] = Math.max(a[3], v);
        }
        assertThat(got).hasSize(expected.size());
        expected.forEach((k, a) -> {
            GroupAggregate.Item it = got.get(new GroupKey(k, 0));
            assertThat(new long[] {it.count(), it.sum(), it.min(), it.max()}).containsExactly(a);
        });

        TopN top = TopN.largest(5, 1).project(0);
        TopN.Output o = TopN.decode(run(top.spec(FIXED, 4096, 0), data, 0,
                data.length));
        ranked.sort((x, y) -> x[0] != y[0] ? Long.compare(y[0], x[0]) : Long.compare(x[1],
                y[1])); // ties keep the earlier record
        assertThat(o.items().stream().map(TopN.Item::value).toList()).isEqualTo(
                ranked.subList(0, 5).stream().map(x -> x[0]).toList());
    }

    @Test
    void textFieldsReadAsTheDriveReadsThem() throws IOException {
        byte[] t = "a,1\nb,-5\nc,x\nd\ne,2147483648\nf,-2147483648\n,+3"
                .getBytes(StandardCharsets.US_ASCII);
        Filter f = Filter.records(gt(1, -10));
        List<String> got = f.decode(run(f.spec(TEXT, 4096, 0), t, 0, t.length),
                TEXT).records().stream().map(r -> new String(r, StandardCharsets.US_ASCII))
                .toList();
        assertThat(got).containsExactly("a,1", "b,-5");
        // SQL's logic: a leaf with no value is unknown, and so is its NOT; IS NULL is true
        Filter missing = Filter.count(not(gt(1, -10)));
        assertThat(missing.decode(run(missing.spec(TEXT, 4096, 0), t, 0,
                t.length), TEXT).matches()).as("NOT of a leaf with no value is unknown")
                .isEqualTo(1);
        Filter isNull = Filter.count(Predicate.isNull(1));
        assertThat(isNull.decode(run(isNull.spec(TEXT, 4096, 0), t, 0,
                t.length), TEXT).matches()).as("IS NULL of the lines with no value (c, d, e, +3)")
                .isEqualTo(4);
    }

    @Test
    void pagesModeHasNoHostVersion() {
        assertThatThrownBy(() -> HostTasklet.of(Filter.pages(null).spec(FIXED, 4096, 0)))
                .hasMessageContaining("PAGES");
    }
}
