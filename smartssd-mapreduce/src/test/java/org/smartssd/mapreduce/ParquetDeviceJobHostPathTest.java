package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.tasklet.GroupAggregate.Op;
import org.smartssd.device.tasklet.Predicate;
import org.smartssd.scan.parquet.ParquetFooter;

/**
 * The host path of a device job over Parquet (what runs where the drive refuses a row group)
 * against the drive's: the same queries over one SNAPPY file, once in the drive and once
 * forced to the host, give the same output, key for key, over every type the drive reads
 * (INT32 with negatives, INT64, DOUBLE and FLOAT with -0.0 and NaN, DECIMAL, STRING equality
 * and prefix, DATE, TIMESTAMP in milliseconds, BOOLEAN) and NULLs in each. The projected rows
 * also equal a reference computed here from parquet-mr's rows with SQL's three-valued logic.
 */
class ParquetDeviceJobHostPathTest {
    static final int N = 20_000;
    static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message r {"
            + " required int64 id; optional int32 i; optional double d; optional float f;"
            + " optional int64 dec (DECIMAL(12,2)); optional binary s (STRING);"
            + " optional int32 day (DATE); optional int64 ts (TIMESTAMP(MILLIS,true));"
            + " optional boolean b; }");
    static final List<String> COLUMNS = List.of("id", "i", "d", "f", "dec", "s", "day", "ts",
            "b");
    static final int ID = 0;
    static final int I = 1;
    static final int D = 2;
    static final int F = 3;
    static final int DEC = 4;
    static final int S = 5;
    static final int DAY = 6;
    static final int TS = 7;
    static final int B = 8;
    static final long DAY_MILLIS = 86_400_123L;
    static final long TS_FROM_MICROS = 5 * 86_400_000_000L;

    @TempDir
    static java.nio.file.Path dir;
    static Configuration conf;
    static java.nio.file.Path local;
    static final Path INPUT = new Path("smartssd://pqhosttest/t.parquet");

    @BeforeAll
    static void writeInput() throws Exception {
        conf = Drives.local(dir);
        local = dir.resolve("t.parquet");
        SimpleGroupFactory rows = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new Path(local.toUri()))
                .withType(SCHEMA).withCompressionCodec(CompressionCodecName.SNAPPY)
                .withRowGroupSize(64 * 1024L).withPageSize(8 * 1024)
                .withConf(new Configuration(false)).build()) {
            for (long id = 0; id < N; id++) {
                Group r = rows.newGroup().append("id", id);
                if (id % 7 != 0) {
                    r.append("i", (int) ((id * 31) % 2001) - 1000);
                }
                if (id % 5 != 0) {
                    r.append("d", id % 1009 == 2 ? -0.0 : id % 997 == 3 ? Double.NaN
                            : ((id * 17) % 4001 - 2000) / 100.0);
                }
                if (id % 6 != 0) {
                    r.append("f", id % 1013 == 1 ? -0.0f : ((id * 13) % 801 - 400) / 8.0f);
                }
                if (id % 8 != 0) {
                    r.append("dec", (id * 7919) % 2_000_001 - 1_000_000);
                }
                if (id % 4 != 0) {
                    r.append("s", id % 11 == 0 ? "" : id % 3 == 0 ? "abc"
                            : id % 3 == 1 ? "abcd" : "pre" + id % 50);
                }
                if (id % 9 != 0) {
                    r.append("day", (int) (id % 400) - 200);
                }
                if (id % 10 != 0) {
                    r.append("ts", (id - N / 2) * DAY_MILLIS);
                }
                if (id % 3 != 0) {
                    r.append("b", id % 2 == 0);
                }
                w.write(r);
            }
        }
        Drives.write(conf, INPUT, Files.readAllBytes(local));
        assertThat(ParquetFooter.read(new Path(local.toUri()), conf).rowGroups().size())
                .as("row groups").isGreaterThan(3);
    }

    static long dkey(double v) {
        return RecordLayout.f64Key(Double.doubleToRawLongBits(v));
    }

    static long fkey(float v) {
        return RecordLayout.f32Key(Float.floatToRawIntBits(v));
    }

    // d < -1.5 AND f >= -2.25 OR dec <= -123.45 OR s = 'abc' AND i > 900
    // OR s LIKE 'pre1%' AND i < 0 OR ts > 5 days AND NOT b OR i IS NULL AND day >= 100
    // OR d = 0.0 OR f = 0.0 AND b
    static final Predicate WHERE = Predicate.or(
            Predicate.and(Predicate.lt(D, dkey(-1.5)), Predicate.ge(F, fkey(-2.25f))),
            Predicate.le(DEC, -12345),
            Predicate.and(Predicate.bytesEq(S, "abc".getBytes()), Predicate.gt(I, 900)),
            Predicate.and(Predicate.prefix(S, "pre1"), Predicate.lt(I, 0)),
            Predicate.and(Predicate.gt(TS, TS_FROM_MICROS), Predicate.not(Predicate.eq(B, 1))),
            Predicate.and(Predicate.isNull(I), Predicate.ge(DAY, 100)),
            Predicate.eq(D, dkey(0.0)),
            Predicate.and(Predicate.eq(F, fkey(0.0f)), Predicate.eq(B, 1)));

    static final ParquetQuery ROWS = ParquetQuery.rows(COLUMNS, WHERE.encode(), 0,
            ID, I, D, F, DEC, S, DAY, TS, B);

    static final List<ParquetQuery> AGGREGATES = List.of(
            // per (day, b) where d >= 0 OR s LIKE 'pre%': count, sum, min, max of dec
            ParquetQuery.aggregate(COLUMNS, Predicate.or(Predicate.ge(D, dkey(0.0)),
                    Predicate.prefix(S, "pre")).encode(),
                    Op.COUNT.bit() | Op.SUM.bit() | Op.MIN.bit() | Op.MAX.bit(), DEC, DAY, B),
            // per b where s <> 'abcd': count, min, max of f (no SUM of floats in the drive)
            ParquetQuery.aggregate(COLUMNS, Predicate.not(Predicate.bytesEq(S,
                    "abcd".getBytes())).encode(), Op.COUNT.bit() | Op.MIN.bit() | Op.MAX.bit(),
                    F, B),
            // per i where ts < 0: min and max of d (NaN the largest)
            ParquetQuery.aggregate(COLUMNS, Predicate.lt(TS, 0).encode(),
                    Op.COUNT.bit() | Op.MIN.bit() | Op.MAX.bit(), D, I),
            // per day: count of rows (a NULL value counted: COUNT alone reads no value)
            ParquetQuery.aggregate(COLUMNS, new byte[0], Op.COUNT.bit(), I, DAY));

    private static DeviceJob job(String name, ParquetQuery q, boolean hostOnly)
            throws Exception {
        Configuration c = new Configuration(conf);
        c.setBoolean(ParquetRowGroupInputFormat.HOST_ONLY, hostOnly);
        c.setLong("mapreduce.input.fileinputformat.split.maxsize", 100 * 1024L);
        DeviceJob job = DeviceJob.getInstance(c, name);
        job.setParquetScan(q);
        job.addInputPath(INPUT);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileOutputFormat.setOutputPath(job, new Path(dir.resolve("out-" + name).toUri()));
        if (q.mode() == org.smartssd.scan.parquet.ParquetScanPlan.Mode.AGGREGATE) {
            job.setCombinerClass(AggregateReducer.class);
            job.setReducerClass(AggregateReducer.class);
        }
        job.setNumReduceTasks(1);
        assertThat(job.waitForCompletion(true)).as(name).isTrue();
        Counters n = job.getCounters();
        int groups = ParquetFooter.read(new Path(local.toUri()), conf).rowGroups().size();
        if (hostOnly) {
            assertThat(n.findCounter(DeviceCounters.TASKLET_RUNS).getValue()).isZero();
            assertThat(n.findCounter(DeviceCounters.HOST_ROW_GROUPS).getValue())
                    .isEqualTo(groups);
            assertThat(n.findCounter(DeviceCounters.HOST_ROWS_READ).getValue()).isEqualTo(N);
        } else {
            assertThat(n.findCounter(DeviceCounters.TASKLET_RUNS).getValue()).isPositive();
            assertThat(n.findCounter(DeviceCounters.HOST_ROW_GROUPS).getValue()).isZero();
        }
        return job;
    }

    /** The job's output in order, each pair as text: the key's two parts, then the value. */
    private static List<String> output(DeviceJob job, String name, Class<? extends
            org.apache.hadoop.io.Writable> value) throws Exception {
        List<String> out = new ArrayList<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), new Path(dir.resolve("out-" + name)
                .toUri()), LongPairWritable.class, value)) {
            LongPairWritable k = (LongPairWritable) kv[0];
            String v = kv[1] instanceof AggregateWritable a
                    ? a.count() + " " + a.sum() + " " + a.min() + " " + a.max() : kv[1].toString();
            out.add(k.first() + " " + k.second() + "\t" + v);
        }
        return out;
    }

    @Test
    void hostRowsEqualTheDrivesAndParquetMr() throws Exception {
        List<String> drive = output(job("rows-drive", ROWS, false), "rows-drive", Text.class);
        List<String> host = output(job("rows-host", ROWS, true), "rows-host", Text.class);
        assertThat(host).isEqualTo(drive);

        List<String> want = reference();
        assertThat(want.size()).as("matches").isBetween(1000, N - 1000);
        List<String> got = new ArrayList<>();
        for (String kv : host) {
            got.add(kv.substring(kv.indexOf('\t') + 1));
        }
        got.sort(null);
        want.sort(null);
        assertThat(got).isEqualTo(want);
        assertThat(String.join("\n", got)).as("the edge values are among the matches")
                .contains("\tNaN\t", "\t0.0\t", "\t-", "\\N", "pre1");
    }

    @Test
    void hostAggregatesEqualTheDrives() throws Exception {
        for (int q = 0; q < AGGREGATES.size(); q++) {
            List<String> drive = output(job("agg-drive-" + q, AGGREGATES.get(q), false),
                    "agg-drive-" + q, AggregateWritable.class);
            List<String> host = output(job("agg-host-" + q, AGGREGATES.get(q), true),
                    "agg-host-" + q, AggregateWritable.class);
            assertThat(drive).as("query %d's groups", q).hasSizeGreaterThan(1);
            assertThat(host).as("query %d", q).isEqualTo(drive);
        }
    }

    /** {@link #ROWS} over parquet-mr's rows, evaluated here: SQL's three-valued logic
     *  (null: UNKNOWN), floats in SQL's order (-0.0 = 0.0, NaN above all). */
    static List<String> reference() throws Exception {
        List<String> out = new ArrayList<>();
        try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(),
                new Path(local.toUri())).withConf(new Configuration(false)).build()) {
            for (Group g = r.read(); g != null; g = r.read()) {
                Long id = g.getLong("id", 0);
                Integer i = has(g, "i") ? g.getInteger("i", 0) : null;
                Double d = has(g, "d") ? g.getDouble("d", 0) : null;
                Float f = has(g, "f") ? g.getFloat("f", 0) : null;
                Long dec = has(g, "dec") ? g.getLong("dec", 0) : null;
                String s = has(g, "s") ? g.getString("s", 0) : null;
                Integer day = has(g, "day") ? g.getInteger("day", 0) : null;
                Long ts = has(g, "ts") ? g.getLong("ts", 0) * 1000 : null;
                Boolean b = has(g, "b") ? g.getBoolean("b", 0) : null;
                Boolean pass = or(
                        and(d == null ? null : sqlCompare(d, -1.5) < 0,
                                f == null ? null : sqlCompare(f, -2.25) >= 0),
                        dec == null ? null : dec <= -12345,
                        and(s == null ? null : s.equals("abc"), i == null ? null : i > 900),
                        and(s == null ? null : s.startsWith("pre1"), i == null ? null : i < 0),
                        and(ts == null ? null : ts > TS_FROM_MICROS, b == null ? null : !b),
                        and(i == null, day == null ? null : day >= 100),
                        d == null ? null : sqlCompare(d, 0.0) == 0,
                        and(f == null ? null : sqlCompare(f, 0.0) == 0, b));
                if (!Boolean.TRUE.equals(pass)) {
                    continue;
                }
                out.add(String.join("\t", String.valueOf(id), text(i), text(d == null ? null
                        : d == 0 ? 0.0 : d), text(f == null ? null : f == 0 ? 0.0f : f),
                        dec == null ? "\\N" : BigDecimal.valueOf(dec, 2).toPlainString(),
                        text(s), text(day), text(ts), text(b)));
            }
        }
        return out;
    }

    private static boolean has(Group g, String field) {
        return g.getFieldRepetitionCount(field) > 0;
    }

    private static String text(Object v) {
        return v == null ? "\\N" : v.toString();
    }

    /** SQL's order of doubles: -0.0 equal to 0.0, NaN above every number. */
    private static int sqlCompare(double a, double b) {
        return Double.compare(a == 0 ? 0.0 : a, b == 0 ? 0.0 : b);
    }

    private static Boolean and(Boolean... v) {
        Boolean res = true;
        for (Boolean x : v) {
            if (Boolean.FALSE.equals(x)) {
                return false;
            }
            if (x == null) {
                res = null;
            }
        }
        return res;
    }

    private static Boolean or(Boolean... v) {
        Boolean res = false;
        for (Boolean x : v) {
            if (Boolean.TRUE.equals(x)) {
                return true;
            }
            if (x == null) {
                res = null;
            }
        }
        return res;
    }
}
