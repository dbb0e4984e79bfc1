package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.TaskletSpec;
import org.smartssd.fs.SmartSsdKeys;
import org.smartssd.scan.Placement;

/** The pure parts of device jobs: the spec in the configuration, the writables' merges. */
class ConfigAndWritablesTest {
    @Test
    void specSurvivesTheConfiguration() {
        RecordLayout text = RecordLayout.text('\n', ',', 4096, List.of(
                Field.of(2, FieldType.U64), Field.of(0, FieldType.BYTES)));
        RecordLayout fixed = RecordLayout.fixed(20, List.of(Field.of(12, FieldType.U32),
                new Field(19, FieldType.U8, 0, 5, 3), new Field(0, FieldType.BYTES, 4, 0, 0)));
        for (RecordLayout l : List.of(text, fixed, RecordLayout.lines(100))) {
            TaskletSpec spec = new TaskletSpec(2, l, new byte[] {1, 0, -1, 7}, 4096, 99);
            Configuration conf = new Configuration(false);
            TaskletSpecs.store(conf, "p", spec);
            TaskletSpec back = TaskletSpecs.load(conf, "p");
            assertThat(back.taskletId()).isEqualTo(2);
            assertThat(back.params()).containsExactly(1, 0, -1, 7);
            assertThat(back.memoryBudget()).isEqualTo(4096);
            assertThat(back.stepLimit()).isEqualTo(99);
            assertThat(back.layout().kind()).isEqualTo(l.kind());
            assertThat(back.layout().recordSize()).isEqualTo(l.recordSize());
            assertThat(back.layout().lineDelim()).isEqualTo(l.lineDelim());
            assertThat(back.layout().fieldSep()).isEqualTo(l.fieldSep());
            assertThat(back.layout().fields()).isEqualTo(l.fields());
        }
        assertThat(TaskletSpecs.layoutToString(fixed)).isEqualTo(
                "FIXED/20/12:U32:0:0:0,19:U8:0:5:3,0:BYTES:4:0:0");
        assertThat(TaskletSpecs.load(new Configuration(false), "p")).isNull();
        assertThatThrownBy(() -> TaskletSpecs.layoutOf("FIXED/20/1:NOPE:0:0:0"))
                .hasMessageContaining("bad record layout");
    }

    @Test
    void aggregatesMergeExactlyAndRoundTrip() throws Exception {
        AggregateWritable a = new AggregateWritable(0xf, true, 2, 10, -3, 8);
        a.merge(new AggregateWritable(0xf, true, 1, -20, 5, 9));
        assertThat(a).isEqualTo(new AggregateWritable(0xf, true, 3, -10, -3, 9));
        assertThat(a.toString()).isEqualTo("count=3\tsum=-10\tmin=-3\tmax=9");
        AggregateWritable u = new AggregateWritable(0x9, false, 1, 0, 0, -1);
        u.merge(new AggregateWritable(0x9, false, 1, 0, 0, 5));
        assertThat(u.max()).isEqualTo(-1); // 2^64-1 is the unsigned max
        assertThat(u.toString()).isEqualTo("count=2\tmax=18446744073709551615");
        assertThat(roundTrip(a, new AggregateWritable())).isEqualTo(a);
    }

    @Test
    void rankedRecordsOrderBestFirstWithTiesToTheEarlierSplitAndItem() throws Exception {
        List<RankedWritable> l = new ArrayList<>(List.of(
                new RankedWritable(5, 200, 0, 3, false, true, new byte[] {'c'}),
                new RankedWritable(5, 0, 1, 3, false, true, new byte[] {'b'}),
                new RankedWritable(-9, 0, 0, 3, false, true, new byte[] {'x'}),
                new RankedWritable(7, 400, 0, 3, false, true, new byte[] {'a'}),
                new RankedWritable(5, 0, 0, 3, false, true, new byte[] {'z'})));
        l.sort(RankedWritable.ranking(false, true));
        assertThat(l).extracting(r -> (char) r.payload()[0]).containsExactly('a', 'z', 'b', 'c',
                'x');
        RankedWritable r = l.get(0);
        assertThat(roundTrip(r, new RankedWritable())).isEqualTo(r);
    }

    @Test
    void pairKeysCompareSerialized() throws Exception {
        LongPairWritable a = new LongPairWritable(-1, 5);
        LongPairWritable b = new LongPairWritable(0, -7);
        byte[] x = bytes(a);
        byte[] y = bytes(b);
        WritableComparator cmp = WritableComparator.get(LongPairWritable.class);
        assertThat(cmp.compare(x, 0, x.length, y, 0, y.length)).isNegative();
        assertThat(a.compareTo(b)).isNegative();
        assertThat(roundTrip(a, new LongPairWritable())).isEqualTo(a);
        assertThat(a.toString()).isEqualTo("-1\t5");
    }

    private static byte[] bytes(Writable w) throws Exception {
        ByteArrayOutputStream bo = new ByteArrayOutputStream();
        w.write(new DataOutputStream(bo));
        return bo.toByteArray();
    }

    /** Every key a device job reads or writes is in smartssd-fs's one list of keys. */
    @Test
    void everyJobKeyIsAKnownKey() {
        TaskletSpec spec = new TaskletSpec(1, RecordLayout.fixed(8, List.of(
                Field.of(0, FieldType.U64))), new byte[16], 4096, 0);
        Configuration conf = new Configuration(false);
        TaskletSpecs.store(conf, DeviceJob.TASKLET_PREFIX, spec);
        conf.set(DeviceJob.MAPPER_CLASS, "x");
        conf.set(DeviceJob.FORMAT_CLASS, "x");
        conf.set(DeviceJob.SCRATCH_DIR, "x");
        conf.set(DeviceJob.TASKLET_TIMEOUT, "x");
        conf.set(DeviceJob.PREFLIGHT, "x");
        conf.set(DeviceJob.ENERGY_SCOPE, "x");
        for (String k : List.of(Placement.KEY, Placement.HOST_MAPPER_CLASS,
                Placement.HOST_NS_PER_BYTE, Placement.HOST_NS_PER_RECORD,
                Placement.LINK_NS_PER_BYTE, Placement.DRAIN,
                Placement.CALIBRATED + "d0.page-size")) {
            conf.set(k, "x");
        }
        conf.getPropsWithPrefix(SmartSsdKeys.PREFIX).keySet().forEach(rest -> assertThat(
                SmartSsdKeys.isKnown(SmartSsdKeys.PREFIX + rest)).as(rest).isTrue());
        assertThat(conf.getPropsWithPrefix(SmartSsdKeys.PREFIX)).hasSizeGreaterThan(15);
    }

    private static <W extends Writable> W roundTrip(Writable w, W into) throws Exception {
        into.readFields(new DataInputStream(new ByteArrayInputStream(bytes(w))));
        return into;
    }
}
