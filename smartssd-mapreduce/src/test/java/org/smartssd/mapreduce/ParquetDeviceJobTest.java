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
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.tasklet.GroupAggregate.Op;
import org.smartssd.device.tasklet.Predicate;
import org.smartssd.scan.parquet.ParquetFooter;
import org.smartssd.scan.parquet.ParquetScanPlan;

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
        for (CompressionCodecName codec : List.of(CompressionCodecName.SNAPPY,
                CompressionCodecName.UNCOMPRESSED)) {
            java.nio.file.Path local = write(codec + ".parquet", codec, 48 * 1024L, 0, N);
            LOCAL.add(local);
            Drives.write(conf, new Path(INPUT, "part-" + codec + ".parquet"),
                    Files.readAllBytes(local));
        }
    }

    /** Writes rows {@code from} .. {@code to - 1} of {@link #SCHEMA} to a local file. */
    static java.nio.file.Path write(String name, CompressionCodecName codec, long rowGroupSize,
                                    long from, long to) throws Exception {
        SimpleGroupFactory rows = new SimpleGroupFactory(SCHEMA);
        java.nio.file.Path local = dir.resolve(name);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new Path(local.toUri()))
                .withType(SCHEMA).withCompressionCodec(codec).withRowGroupSize(rowGroupSize)
                .withPageSize(8 * 1024).withConf(new Configuration(false)).build()) {
            for (long id = from; id < to; id++) {
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
        return local;
    }

    /** Every row of the local copies, read with parquet-mr: id, g, k, name (null: NULL). */
    static List<Object[]> reference() throws Exception {
        return reference(LOCAL);
    }

    /** Every row of {@code files}, read with parquet-mr: id, g, k, name (null: NULL). */
    static List<Object[]> reference(List<java.nio.file.Path> files) throws Exception {
        List<Object[]> out = new ArrayList<>();
        for (java.nio.file.Path f : files) {
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
        return job(name, q, new Configuration(conf), INPUT);
    }

    static DeviceJob job(String name, ParquetQuery q, Configuration c, Path input)
            throws Exception {
        DeviceJob job = DeviceJob.getInstance(c, name);
        job.setParquetScan(q);
        job.addInputPath(input);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileOutputFormat.setOutputPath(job, new Path(dir.resolve("out-" + name).toUri()));
        if (q.mode() == ParquetScanPlan.Mode.AGGREGATE) {
            job.setCombinerClass(AggregateReducer.class);
            job.setReducerClass(AggregateReducer.class);
            job.setNumReduceTasks(2);
        } else {
            job.setNumReduceTasks(1);
        }
        return job;
    }

    // SELECT g, count(k), sum(k), min(k), max(k) WHERE id >= 1000 AND name <> 'n5' GROUP BY g
    static final ParquetQuery AGGREGATE = ParquetQuery.aggregate(List.of("g", "k", "id", "name"),
            Predicate.and(Predicate.ge(2, 1000),
                    Predicate.not(Predicate.bytesEq(3, "n5".getBytes()))).encode(),
            Op.COUNT.bit() | Op.SUM.bit() | Op.MIN.bit() | Op.MAX.bit(), 1, 0);

    // SELECT id, name WHERE k = 3 OR k IS NULL AND g = 2
    static final ParquetQuery ROWS = ParquetQuery.rows(List.of("id", "name", "k", "g"),
            Predicate.or(Predicate.eq(2, 3), Predicate.and(Predicate.isNull(2),
                    Predicate.eq(3, 2))).encode(), 0, 0, 1);

    /** {@link #AGGREGATE} over {@code rows} (id, g, k, name), computed here. */
    static Map<Long, long[]> aggregateReference(List<Object[]> rows) {
        Map<Long, long[]> want = new TreeMap<>();
        for (Object[] r : rows) {
            // SQL: name <> 'n5' is unknown where name is NULL; the value k NULL is left out
            if ((Long) r[0] < 1000 || r[3] == null || r[3].equals("n5") || r[2] == null) {
                continue;
            }
            long k = (Integer) r[2];
            want.merge((long) (Integer) r[1], new long[] {1, k, k, k}, (a, b) -> new long[] {
                    a[0] + b[0], a[1] + b[1], Math.min(a[2], b[2]), Math.max(a[3], b[3])});
        }
        return want;
    }

    /** {@link #ROWS} over {@code rows} (id, g, k, name), computed here, sorted. */
    static List<String> rowsReference(List<Object[]> rows) {
        List<String> want = new ArrayList<>();
        for (Object[] r : rows) {
            boolean k3 = r[2] != null && (Integer) r[2] == 3;
            if (k3 || (r[2] == null && (Integer) r[1] == 2)) {
                want.add(r[0] + "\t" + (r[3] == null ? "\\N" : r[3]));
            }
        }
        want.sort(null);
        return want;
    }

    /** The AGGREGATE job's groups: g -> count, sum, min, max (one item per group). */
    static Map<Long, long[]> aggregateOutput(DeviceJob job, String name) throws Exception {
        Map<Long, long[]> got = new TreeMap<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), new Path(dir.resolve("out-" + name)
                .toUri()), LongPairWritable.class, AggregateWritable.class)) {
            AggregateWritable a = (AggregateWritable) kv[1];
            assertThat(got.put(((LongPairWritable) kv[0]).first(),
                    new long[] {a.count(), a.sum(), a.min(), a.max()})).isNull();
        }
        return got;
    }

    /** The ROWS job's rows as text, sorted; its keys checked: (split's first byte, row in
     *  the split), the rows of each split numbered from 0. */
    static List<String> rowsOutput(DeviceJob job, String name) throws Exception {
        List<String> got = new ArrayList<>();
        Map<Long, List<Long>> bySplit = new TreeMap<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), new Path(dir.resolve("out-" + name)
                .toUri()), LongPairWritable.class, Text.class)) {
            LongPairWritable k = (LongPairWritable) kv[0];
            bySplit.computeIfAbsent(k.first(), x -> new ArrayList<>()).add(k.second());
            got.add(kv[1].toString());
        }
        // files' first row groups start at the same byte: their rows share the first key
        bySplit.values().forEach(rows -> assertThat(new java.util.TreeSet<>(rows)).containsExactly(
                java.util.stream.LongStream.range(0, new java.util.TreeSet<>(rows).size())
                        .boxed().toArray(Long[]::new)));
        got.sort(null);
        return got;
    }

    static void assertGroups(Map<Long, long[]> got, Map<Long, long[]> want) {
        assertThat(want).isNotEmpty();
        assertThat(got.keySet()).isEqualTo(want.keySet());
        want.forEach((g, w) -> assertThat(got.get(g)).as("g=%d", g).containsExactly(w));
    }

    /** The parquet-scan runs a drive makes over the splits: each split's row groups cut as
     *  the plan's size allows. */
    static long runs(List<InputSplit> splits, ParquetQuery q) throws Exception {
        long runs = 0;
        for (InputSplit s : splits) {
            ParquetRowGroupInputFormat.RowGroupSplit r =
                    (ParquetRowGroupInputFormat.RowGroupSplit) s;
            ParquetFooter f = ParquetFooter.read(r.getPath(), conf);
            runs += q.plan(f).runs(f.rowGroups().subList(r.rowGroup(),
                    r.rowGroup() + r.rowGroups())).size();
        }
        return runs;
    }

    @Test
    void groupAggregateOverRowGroupsEqualsParquetMr() throws Exception {
        DeviceJob job = job("agg", AGGREGATE);
        List<InputSplit> splits = new ParquetRowGroupInputFormat().getSplits(job);
        assertThat(splits).hasSize(2); // a file each: both are under a block
        for (InputSplit s : splits) {
            assertThat(s.getLocations()).containsExactly("drive-host-1");
        }
        assertThat(job.waitForCompletion(true)).isTrue();
        assertGroups(aggregateOutput(job, "agg"), aggregateReference(reference()));
        assertThat(job.getCounters().findCounter(DeviceCounters.TASKLET_RUNS).getValue())
                .isEqualTo(runs(splits, AGGREGATE));
        assertThat(job.getCounters().findCounter(DeviceCounters.RECORDS_SCANNED).getValue())
                .isEqualTo(2L * N);
    }

    @Test
    void projectedRowsEqualParquetMr() throws Exception {
        DeviceJob job = job("rows", ROWS);
        assertThat(job.waitForCompletion(true)).isTrue();
        List<String> want = rowsReference(reference());
        assertThat(want).isNotEmpty();
        assertThat(rowsOutput(job, "rows")).isEqualTo(want);
    }

    /**
     * With a small maximum split size a split is a run of consecutive row groups up to it:
     * every row group in one split, in file order, the splits naming the drive's host, the
     * answers the same, fewer drive runs than row groups.
     */
    @Test
    void splitsAreRunsOfRowGroupsUpToTheSplitSize() throws Exception {
        long largest = 0;
        int groups = 0;
        for (java.nio.file.Path f : LOCAL) {
            for (BlockMetaData b : ParquetFooter.read(new Path(f.toUri()), conf).rowGroups()) {
                largest = Math.max(largest, b.getCompressedSize());
                groups++;
            }
        }
        long max = 3 * largest;
        for (ParquetQuery q : List.of(AGGREGATE, ROWS)) {
            Configuration c = new Configuration(conf);
            c.setLong("mapreduce.input.fileinputformat.split.maxsize", max);
            String name = "split-" + q.mode();
            DeviceJob job = job(name, q, c, INPUT);
            List<InputSplit> splits = new ParquetRowGroupInputFormat().getSplits(job);
            Map<Path, Integer> next = new java.util.HashMap<>();
            int multi = 0;
            for (InputSplit s : splits) {
                ParquetRowGroupInputFormat.RowGroupSplit r =
                        (ParquetRowGroupInputFormat.RowGroupSplit) s;
                assertThat(r.getLocations()).containsExactly("drive-host-1");
                assertThat(r.rowGroup()).as("splits in file order, none left out")
                        .isEqualTo(next.getOrDefault(r.getPath(), 0));
                next.put(r.getPath(), r.rowGroup() + r.rowGroups());
                List<BlockMetaData> rg = ParquetFooter.read(r.getPath(), conf).rowGroups();
                BlockMetaData first = rg.get(r.rowGroup());
                BlockMetaData last = rg.get(r.rowGroup() + r.rowGroups() - 1);
                assertThat(r.getStart()).isEqualTo(first.getStartingPos());
                assertThat(r.getLength()).isEqualTo(last.getStartingPos()
                        + last.getCompressedSize() - first.getStartingPos());
                assertThat(r.rowGroups() == 1 || r.getLength() <= max).isTrue();
                multi += r.rowGroups() > 1 ? 1 : 0;
            }
            for (Map.Entry<Path, Integer> e : next.entrySet()) {
                assertThat(e.getValue()).as("every row group of %s", e.getKey()).isEqualTo(
                        ParquetFooter.read(e.getKey(), conf).rowGroups().size());
            }
            assertThat(multi).as("splits of several row groups").isGreaterThan(2);
            assertThat(splits.size()).isLessThan(groups);

            assertThat(job.waitForCompletion(true)).isTrue();
            if (q == AGGREGATE) {
                assertGroups(aggregateOutput(job, name), aggregateReference(reference()));
            } else {
                assertThat(rowsOutput(job, name)).isEqualTo(rowsReference(reference()));
            }
            long runs = job.getCounters().findCounter(DeviceCounters.TASKLET_RUNS).getValue();
            assertThat(runs).isEqualTo(runs(splits, q)).isLessThan(groups);
            assertThat(job.getCounters().findCounter(DeviceCounters.RECORDS_SCANNED).getValue())
                    .isEqualTo(2L * N);
        }
    }

    /**
     * A folder of a SNAPPY file (the drive's), a GZIP one (a codec the drive refuses) and one
     * whose single row group is larger than the drive's ISP memory: the job succeeds, the
     * refused row groups read on the host and counted, each answer equal to parquet-mr's.
     */
    /**
     * Row groups whose statistics rule the WHERE tree out make no split and no run, as
     * Spark's scan prunes them; what does not translate into a statistics predicate (a
     * prefix) only keeps row groups, also under a NOT, and the answers stay parquet-mr's.
     * The files' row groups hold increasing ids.
     */
    @Test
    void rowGroupsTheirStatisticsRuleOutMakeNoSplit() throws Exception {
        // each file holds ids 0 .. N - 1 in order: a row group's ids follow from the row
        // counts before it
        List<long[]> idRanges = new ArrayList<>();
        for (java.nio.file.Path f : LOCAL) {
            long first = 0;
            for (BlockMetaData g : ParquetFooter.read(new Path(f.toUri()), conf).rowGroups()) {
                idRanges.add(new long[] {first, first + g.getRowCount()});
                first += g.getRowCount();
            }
        }
        record Case(String name, Predicate where, java.util.function.Predicate<Object[]> want,
                    long from, long to) {
        }
        List<Case> cases = List.of(
                // id >= 20000 AND id < 21000 AND name LIKE 'n1%'
                new Case("narrow", Predicate.and(Predicate.ge(0, 20_000),
                        Predicate.lt(0, 21_000), Predicate.prefix(1, "n1")),
                        r -> (Long) r[0] >= 20_000 && (Long) r[0] < 21_000 && r[3] != null
                                && ((String) r[3]).startsWith("n1"), 20_000, 21_000),
                // NOT (id < 29000): the inverse, id >= 29000
                new Case("tail", Predicate.not(Predicate.lt(0, 29_000)),
                        r -> (Long) r[0] >= 29_000, 29_000, N),
                // NOT (id < 29000 AND name LIKE 'n1%'): the AND under the NOT is not
                // translated whole, so it prunes nothing (a NULL name: UNKNOWN where id <
                // 29000, so the row is left out; FALSE, so kept, from 29000 on)
                new Case("negated", Predicate.not(Predicate.and(Predicate.lt(0, 29_000),
                        Predicate.prefix(1, "n1"))),
                        r -> (Long) r[0] >= 29_000 || (r[3] != null
                                && !((String) r[3]).startsWith("n1")), 0, N));
        for (Case c : cases) {
            ParquetQuery q = ParquetQuery.rows(List.of("id", "name"), c.where().encode(), 0, 0,
                    1);
            DeviceJob job = job("stats-" + c.name(), q);
            List<InputSplit> splits = new ParquetRowGroupInputFormat().getSplits(job);
            long inSplits = 0;
            for (InputSplit s : splits) {
                inSplits += ((ParquetRowGroupInputFormat.RowGroupSplit) s).rowGroups();
            }
            // the row groups holding an id of [from, to), and no other
            long holding = idRanges.stream().filter(r -> r[0] < c.to() && r[1] > c.from())
                    .count();
            assertThat(inSplits).as(c.name() + ": row groups in splits, of "
                    + idRanges.size()).isEqualTo(holding);
            assertThat(job.waitForCompletion(true)).isTrue();
            assertThat(job.getCounters().findCounter(DeviceCounters.TASKLET_RUNS).getValue())
                    .isEqualTo(runs(splits, q));
            List<String> want = new ArrayList<>();
            for (Object[] r : reference()) {
                if (c.want().test(r)) {
                    want.add(r[0] + "\t" + (r[3] == null ? "\\N" : r[3]));
                }
            }
            want.sort(null);
            assertThat(want).as(c.name()).isNotEmpty();
            assertThat(rowsOutput(job, "stats-" + c.name())).as(c.name()).isEqualTo(want);
        }
    }

    @Test
    void rowGroupsTheDriveRefusesAreReadOnTheHost() throws Exception {
        Path mixed = new Path("smartssd://pqjobtest/mixed");
        java.nio.file.Path gzip = write("gzip.parquet", CompressionCodecName.GZIP, 48 * 1024L,
                N, 2 * N);
        int bigRows = 120_000;
        java.nio.file.Path big = write("big.parquet", CompressionCodecName.UNCOMPRESSED,
                64L << 20, 2 * N, 2 * N + bigRows);
        List<java.nio.file.Path> files = List.of(LOCAL.get(0), gzip, big);
        for (java.nio.file.Path f : files) {
            Drives.write(conf, new Path(mixed, f.getFileName().toString()),
                    Files.readAllBytes(f));
        }
        List<BlockMetaData> snappyGroups = ParquetFooter.read(new Path(files.get(0).toUri()),
                conf).rowGroups();
        int gzipGroups = ParquetFooter.read(new Path(gzip.toUri()), conf).rowGroups().size();
        assertThat(ParquetFooter.read(new Path(big.toUri()), conf).rowGroups()).hasSize(1);
        long largest = snappyGroups.stream().mapToLong(BlockMetaData::getCompressedSize).max()
                .orElseThrow();
        for (ParquetQuery q : List.of(AGGREGATE, ROWS)) {
            Configuration c = new Configuration(conf);
            c.setLong("mapreduce.input.fileinputformat.split.maxsize", 3 * largest);
            String name = "mixed-" + q.mode();
            DeviceJob job = job(name, q, c, mixed);
            assertThat(job.waitForCompletion(true)).as("the job over refused row groups")
                    .isTrue();
            if (q == AGGREGATE) {
                assertGroups(aggregateOutput(job, name), aggregateReference(reference(files)));
            } else {
                assertThat(rowsOutput(job, name)).isEqualTo(rowsReference(reference(files)));
            }
            org.apache.hadoop.mapreduce.Counters n = job.getCounters();
            assertThat(n.findCounter(DeviceCounters.HOST_ROW_GROUPS).getValue())
                    .isEqualTo(gzipGroups + 1);
            assertThat(n.findCounter(DeviceCounters.HOST_ROWS_READ).getValue())
                    .isEqualTo(N + bigRows);
            assertThat(n.findCounter(DeviceCounters.RECORDS_SCANNED).getValue())
                    .as("the SNAPPY file's rows, in the drive").isEqualTo(N);
            assertThat(n.findCounter(DeviceCounters.TASKLET_RUNS).getValue()).isPositive()
                    .isLessThanOrEqualTo(snappyGroups.size());
        }
    }

    /**
     * One file whose row groups are SNAPPY, then GZIP (parquet-mr's appendFile copies row
     * groups as they are), in one split: its first runs go to the drive, and the first run
     * holding a GZIP row group, refused, goes with every later row group to the host; the
     * answer is parquet-mr's, the rows of the split numbered on across the two sides.
     */
    @Test
    void aRefusedRunAndTheSplitsLaterRowGroupsGoToTheHost() throws Exception {
        java.nio.file.Path gzip = write("gzip-tail.parquet", CompressionCodecName.GZIP,
                48 * 1024L, 3 * N, 4 * N);
        java.nio.file.Path merged = dir.resolve("merged.parquet");
        org.apache.parquet.hadoop.ParquetFileWriter w = new org.apache.parquet.hadoop
                .ParquetFileWriter(new Configuration(false), SCHEMA, new Path(merged.toUri()));
        w.start();
        // enough SNAPPY row groups that the first run (at most 4096 bytes of plan, some 29
        // row groups of these 4 columns) holds only them
        int snappyGroups = ParquetFooter.read(new Path(LOCAL.get(0).toUri()), conf).rowGroups()
                .size();
        List<java.nio.file.Path> parts = new ArrayList<>();
        for (int g = 0; g <= 64; g += snappyGroups) {
            parts.add(LOCAL.get(0));
        }
        parts.add(gzip);
        for (java.nio.file.Path f : parts) {
            w.appendFile(new Configuration(false), new Path(f.toUri()));
        }
        w.end(Map.of());
        Path input = new Path("smartssd://pqjobtest/merged");
        Drives.write(conf, new Path(input, "m.parquet"), Files.readAllBytes(merged));
        ParquetFooter footer = ParquetFooter.read(new Path(merged.toUri()), conf);
        List<BlockMetaData> groups = footer.rowGroups();
        for (ParquetQuery q : List.of(AGGREGATE, ROWS)) {
            List<List<BlockMetaData>> runs = q.plan(footer).runs(groups);
            int refused = 0;
            int before = 0;
            while (runs.get(refused).stream().noneMatch(ParquetDeviceJobTest::gzip)) {
                before += runs.get(refused).size();
                refused++;
            }
            assertThat(refused).as("drive runs before the refused one").isPositive();
            long driveRows = groups.subList(0, before).stream()
                    .mapToLong(BlockMetaData::getRowCount).sum();
            String name = "merged-" + q.mode();
            DeviceJob job = job(name, q, new Configuration(conf), input);
            assertThat(new ParquetRowGroupInputFormat().getSplits(job)).hasSize(1);
            assertThat(job.waitForCompletion(true)).isTrue();
            if (q == AGGREGATE) {
                assertGroups(aggregateOutput(job, name), aggregateReference(reference(parts)));
            } else {
                assertThat(rowsOutput(job, name)).isEqualTo(rowsReference(reference(parts)));
            }
            org.apache.hadoop.mapreduce.Counters n = job.getCounters();
            assertThat(n.findCounter(DeviceCounters.TASKLET_RUNS).getValue()).isEqualTo(refused);
            assertThat(n.findCounter(DeviceCounters.RECORDS_SCANNED).getValue())
                    .isEqualTo(driveRows);
            assertThat(n.findCounter(DeviceCounters.HOST_ROW_GROUPS).getValue())
                    .isEqualTo(groups.size() - before);
            assertThat(n.findCounter(DeviceCounters.HOST_ROWS_READ).getValue())
                    .isEqualTo((long) parts.size() * N - driveRows);
        }
    }

    private static boolean gzip(BlockMetaData g) {
        return g.getColumns().stream().anyMatch(c -> c.getCodec() == CompressionCodecName.GZIP);
    }
}
