package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
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
import org.smartssd.device.tasklet.GroupAggregate.Op;
import org.smartssd.device.tasklet.Predicate;

/**
 * Device jobs over Parquet files on the LocalJobRunner: two files parquet-mr wrote (SNAPPY
 * and UNCOMPRESSED, several row groups each, NULLs) on an emulated drive, a split per row
 * group, each a parquet-scan run in the drive. Every answer equals a reference computed by
 * reading the same files with parquet-mr on the host.
 */
class ParquetDeviceJobTest {
    static final int N = 30_000;
    static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message t {"
            + " required int64 id; required int32 g; optional int32 k;"
            + " optional binary name (STRING); }");

    @TempDir
    static java.nio.file.Path dir;
    static Configuration conf;
    static final Path INPUT = new Path("smartssd://pqjobtest/pq");
    static final List<java.nio.file.Path> LOCAL = new ArrayList<>();

    @BeforeAll
    static void writeInput() throws Exception {
        conf = Drives.local(dir);
        conf.set("smartssd.device.pqjobtest.host", "drive-host-1");
        SimpleGroupFactory rows = new SimpleGroupFactory(SCHEMA);
        for (CompressionCodecName codec : List.of(CompressionCodecName.SNAPPY,
                CompressionCodecName.UNCOMPRESSED)) {
            java.nio.file.Path local = dir.resolve(codec + ".parquet");
            try (ParquetWriter<Group> w = ExampleParquetWriter.builder(
                            new Path(local.toUri())).withType(SCHEMA).withCompressionCodec(codec)
                    .withRowGroupSize(48 * 1024L).withPageSize(8 * 1024)
                    .withConf(new Configuration(false)).build()) {
                for (long id = 0; id < N; id++) {
                    Group r = rows.newGroup().append("id", id).append("g", (int) (id % 6));
                    if (id % 9 != 0) {
                        r.append("k", (int) ((id * 7919) % 1000) - 500);
                    }
                    if (id % 4 != 0) {
                        r.append("name", "n" + (id % 23));
                    }
                    w.write(r);
                }
            }
            LOCAL.add(local);
            Drives.write(conf, new Path(INPUT, "part-" + codec + ".parquet"),
                    Files.readAllBytes(local));
        }
    }

    /** Every row of the local copies, read with parquet-mr: id, g, k, name (null: NULL). */
    static List<Object[]> reference() throws Exception {
        List<Object[]> out = new ArrayList<>();
        for (java.nio.file.Path f : LOCAL) {
            try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(),
                    new Path(f.toUri())).withConf(new Configuration(false)).build()) {
                for (Group g = r.read(); g != null; g = r.read()) {
                    out.add(new Object[] {g.getLong("id", 0), g.getInteger("g", 0),
                            g.getFieldRepetitionCount("k") == 0 ? null : g.getInteger("k", 0),
                            g.getFieldRepetitionCount("name") == 0 ? null
                                    : g.getString("name", 0)});
                }
            }
        }
        return out;
    }

    private static DeviceJob job(String name, ParquetQuery q) throws Exception {
        DeviceJob job = DeviceJob.getInstance(new Configuration(conf), name);
        job.setParquetScan(q);
        job.addInputPath(INPUT);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileOutputFormat.setOutputPath(job, new Path(dir.resolve("out-" + name).toUri()));
        return job;
    }

    @Test
    void groupAggregateOverRowGroupsEqualsParquetMr() throws Exception {
        // SELECT g, count(k), sum(k), min(k), max(k) WHERE id >= 1000 AND name <> 'n5' GROUP BY g
        byte[] where = Predicate.and(Predicate.ge(2, 1000),
                Predicate.not(Predicate.bytesEq(3, "n5".getBytes()))).encode();
        DeviceJob job = job("agg", ParquetQuery.aggregate(List.of("g", "k", "id", "name"), where,
                Op.COUNT.bit() | Op.SUM.bit() | Op.MIN.bit() | Op.MAX.bit(), 1, 0));
        job.setCombinerClass(AggregateReducer.class);
        job.setReducerClass(AggregateReducer.class);
        job.setNumReduceTasks(2);
        List<InputSplit> splits = new ParquetRowGroupInputFormat().getSplits(job);
        assertThat(splits.size()).as("row groups of the two files").isGreaterThan(4);
        for (InputSplit s : splits) {
            assertThat(s.getLocations()).containsExactly("drive-host-1");
        }
        assertThat(job.waitForCompletion(true)).isTrue();

        Map<Long, long[]> want = new TreeMap<>();
        for (Object[] r : reference()) {
            // SQL: name <> 'n5' is unknown where name is NULL; the value k NULL is left out
            if ((Long) r[0] < 1000 || r[3] == null || r[3].equals("n5") || r[2] == null) {
                continue;
            }
            long k = (Integer) r[2];
            want.merge((long) (Integer) r[1], new long[] {1, k, k, k}, (a, b) -> new long[] {
                    a[0] + b[0], a[1] + b[1], Math.min(a[2], b[2]), Math.max(a[3], b[3])});
        }
        Map<Long, long[]> got = new TreeMap<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), new Path(dir.resolve("out-agg")
                .toUri()), LongPairWritable.class, AggregateWritable.class)) {
            AggregateWritable a = (AggregateWritable) kv[1];
            assertThat(got.put(((LongPairWritable) kv[0]).first(),
                    new long[] {a.count(), a.sum(), a.min(), a.max()})).isNull();
        }
        assertThat(got.keySet()).isEqualTo(want.keySet());
        want.forEach((g, w) -> assertThat(got.get(g)).as("g=%d", g).containsExactly(w));
        assertThat(job.getCounters().findCounter(DeviceCounters.TASKLET_RUNS).getValue())
                .isEqualTo(splits.size());
        assertThat(job.getCounters().findCounter(DeviceCounters.RECORDS_SCANNED).getValue())
                .isEqualTo(2L * N);
    }

    @Test
    void projectedRowsEqualParquetMr() throws Exception {
        // SELECT id, name WHERE k = 3 OR k IS NULL AND g = 2
        byte[] where = Predicate.or(Predicate.eq(2, 3), Predicate.and(Predicate.isNull(2),
                Predicate.eq(3, 2))).encode();
        DeviceJob job = job("rows", ParquetQuery.rows(List.of("id", "name", "k", "g"), where, 0,
                0, 1));
        job.setNumReduceTasks(1);
        assertThat(job.waitForCompletion(true)).isTrue();
        List<String> want = new ArrayList<>();
        for (Object[] r : reference()) {
            boolean k3 = r[2] != null && (Integer) r[2] == 3;
            if (k3 || (r[2] == null && (Integer) r[1] == 2)) {
                want.add(r[0] + "\t" + (r[3] == null ? "\\N" : r[3]));
            }
        }
        List<String> got = new ArrayList<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), new Path(dir.resolve("out-rows")
                .toUri()), LongPairWritable.class, Text.class)) {
            got.add(kv[1].toString());
        }
        assertThat(want).isNotEmpty();
        want.sort(null);
        got.sort(null);
        assertThat(got).isEqualTo(want);
    }
}
