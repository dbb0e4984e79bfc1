package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.smartssd.device.tasklet.Predicate.and;
import static org.smartssd.device.tasklet.Predicate.eq;
import static org.smartssd.device.tasklet.Predicate.gt;
import static org.smartssd.device.tasklet.Predicate.lt;
import static org.smartssd.device.tasklet.Predicate.prefix;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricType;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.InputRange;
import org.smartssd.device.ObjectStat;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.TaskletState;
import org.smartssd.device.tasklet.Filter;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.GroupAggregate.Op;
import org.smartssd.device.tasklet.Predicate;
import org.smartssd.device.tasklet.Projection;
import org.smartssd.device.tasklet.TopN;
import org.smartssd.fs.SmartSsdFileSystem;
import org.smartssd.fs.impl.SharedMetricsSystem;
import org.smartssd.mapreduce.Requests.Request;
import org.smartssd.scan.TaskletRun;

/**
 * Device jobs on the LocalJobRunner over an embedded emulated drive: a 800 000-byte file of
 * 20-byte records in 7 splits of 128 KiB (split bounds cut records). Every answer is checked
 * against a plain Java computation over the same records.
 */
class DeviceJobTest {
    static final int N = 40_000;
    static final int REGIONS = 10;
    static final long SPLIT = 128 * 1024;
    static final int PAGE = 8192;

    @TempDir
    static java.nio.file.Path dir;
    static Configuration conf;
    static Requests data;
    static Path input;

    @BeforeAll
    static void writeInput() throws Exception {
        conf = Drives.local(dir);
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", SPLIT);
        conf.set("smartssd.device.mrtest.host", "drive-host-1");
        data = new Requests(N, REGIONS, 42);
        input = new Path("smartssd://mrtest/data/requests.bin");
        Drives.write(conf, input, data.bytes());
    }

    private static DeviceJob job(String name, TaskletSpec spec,
                                 Class<? extends DeviceMapperFormat<?, ?>> format, Path out)
            throws Exception {
        DeviceJob job = DeviceJob.getInstance(new Configuration(conf), name);
        job.setDeviceMapper(spec);
        job.setDeviceMapperFormat(format);
        job.addInputPath(input);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileOutputFormat.setOutputPath(job, out);
        return job;
    }

    private static Path out(String name) {
        return new Path(dir.resolve("out-" + name).toUri());
    }

    @Test
    void groupAggregateOverSplitsEqualsJava() throws Exception {
        // 6 groups at a time on the drive for 10 regions: every split spills, the host merges
        TaskletSpec spec = GroupAggregate.groupBy(Requests.REGION).value(Requests.VALUE)
                .ops(Op.COUNT, Op.SUM, Op.MIN, Op.MAX).maxGroups(6)
                .spec(Requests.LAYOUT, 64 * 1024, 0);
        DeviceJob job = job("agg", spec, AggregateFormat.class, out("agg"));
        job.setCombinerClass(AggregateReducer.class);
        job.setReducerClass(AggregateReducer.class);
        job.setNumReduceTasks(2);
        assertThat(job.waitForCompletion(true)).isTrue();

        Map<Long, long[]> expect = data.statsByRegion();
        Map<Long, long[]> got = new TreeMap<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), out("agg"),
                LongPairWritable.class, AggregateWritable.class)) {
            AggregateWritable a = (AggregateWritable) kv[1];
            long[] prev = got.put(((LongPairWritable) kv[0]).first(),
                    new long[] {a.count(), a.sum(), a.min(), a.max()});
            assertThat(prev).as("one row per group").isNull();
        }
        assertThat(got.keySet()).isEqualTo(expect.keySet());
        expect.forEach((k, e) -> assertThat(got.get(k)).as("region %d", k).containsExactly(e));

        Counters c = job.getCounters();
        long pages = (N * (long) Requests.SIZE + PAGE - 1) / PAGE;
        List<org.apache.hadoop.mapreduce.InputSplit> inputSplits =
                new DeviceInputFormat().getSplits(job);
        long splits = inputSplits.size();
        assertThat(splits).isEqualTo(7);
        for (org.apache.hadoop.mapreduce.InputSplit s : inputSplits) {
            assertThat(s.getLocations()).as("splits name the drive's host")
                    .containsExactly("drive-host-1");
        }
        assertThat(value(c, DeviceCounters.TASKLET_RUNS)).isEqualTo(splits);
        // the drive spilled: more partials than groups per split went to the shuffle
        assertThat(c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue())
                .isGreaterThan(splits * REGIONS);
        // a record cut by a split bound is finished by the split holding its first byte, which
        // reads the next split's first page too: 5 of the 6 bounds cut a record
        long read = pagesRead(N * (long) Requests.SIZE, SPLIT, 7);
        assertThat(read).isEqualTo(pages + 5);
        assertThat(value(c, DeviceCounters.PAGES_SCANNED)).isEqualTo(read);
        assertThat(value(c, DeviceCounters.BYTES_SCANNED)).isEqualTo(read * PAGE);
        assertThat(value(c, DeviceCounters.RECORDS_SCANNED)).isEqualTo(N);
        assertThat(c.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue()).isEqualTo(N);
        assertThat(value(c, DeviceCounters.PROGRESS_POLLS)).isGreaterThanOrEqualTo(splits);
        assertThat(value(c, DeviceCounters.OUTPUT_BYTES)).isGreaterThanOrEqualTo(splits * 32);
        assertThat(value(c, DeviceCounters.LINK_BYTES))
                .isGreaterThanOrEqualTo(value(c, DeviceCounters.OUTPUT_BYTES));
        assertThat(value(c, DeviceCounters.DEVICE_TIME_NS)).isPositive();
        assertThat(value(c, DeviceCounters.DEVICE_INSTRUCTIONS)).isPositive();
        assertThat(value(c, DeviceCounters.DEVICE_ENERGY_UJ)).isPositive();
        assertThat(value(c, DeviceCounters.DEVICE_ENERGY_UNAVAILABLE)).isZero();
        assertThat(value(c, DeviceCounters.HOST_ENERGY_UJ)).isPositive();
        // the group shows in the job's counter output under its display name
        CounterGroup g = c.getGroup(DeviceCounters.class.getName());
        assertThat(g.getDisplayName()).isEqualTo("Smart SSD device");
        assertThat(c.toString()).contains("Smart SSD device", "Device pages scanned=" + read);
    }

    /** The device-job metrics of this process as a sink collects them, by name. */
    private static Map<String, Long> processMetrics() {
        Map<String, Long> m = new TreeMap<>();
        MetricsSource src = SharedMetricsSystem.named(DeviceJobMetrics.METRICS_SYSTEM)
                .source(DeviceJobMetrics.SOURCE);
        if (src == null) {
            return m;   // no map task has run in this process yet
        }
        MetricsCollectorImpl collector = new MetricsCollectorImpl();
        src.getMetrics(collector, true);
        for (AbstractMetric x : collector.getRecords().get(0).metrics()) {
            assertThat(x.type()).isEqualTo(MetricType.COUNTER);
            m.put(x.name(), x.value().longValue());
        }
        return m;
    }

    @Test
    void theProcessMetricsAddWhatTheJobCounted() throws Exception {
        Map<String, Long> before = processMetrics();
        TaskletSpec spec = GroupAggregate.groupBy(Requests.REGION).value(Requests.VALUE)
                .ops(Op.COUNT, Op.SUM).maxGroups(64).spec(Requests.LAYOUT, 64 * 1024, 0);
        DeviceJob job = job("metrics", spec, AggregateFormat.class, out("metrics"));
        job.setReducerClass(AggregateReducer.class);
        assertThat(job.waitForCompletion(false)).isTrue();
        Map<String, Long> after = processMetrics();

        Map<String, Long> counted = new TreeMap<>();
        for (Class<? extends Enum<?>> group : List.of(DeviceCounters.class,
                PlacementCounters.class, CacheScanCounters.class)) {
            for (Enum<?> e : group.getEnumConstants()) {
                long v = job.getCounters().findCounter(e).getValue();
                String name = DeviceJobMetrics.metricName(e);
                assertThat(counted.put(name, v)).as("%s names one counter", name).isNull();
                assertThat(after.getOrDefault(name, 0L) - before.getOrDefault(name, 0L))
                        .as(name).isEqualTo(v);
            }
        }
        assertThat(counted.get("tasklet_runs")).as("pushed scans").isEqualTo(7);
        assertThat(counted.get("records_scanned")).isEqualTo(N);
        assertThat(counted.get("device_time_ns")).as("modelled device time").isPositive();
        assertThat(counted.get("device_energy_nj")).isPositive();
        assertThat(counted.get("host_energy_uj")).isPositive();
        assertThat(after.keySet()).as("no metric but a job counter's").isSubsetOf(counted.keySet());
    }

    /** The group-aggregate job's rows, by group: count, sum, min, max. */
    private static Map<Long, long[]> aggregateRows(DeviceJob job, Path out) throws Exception {
        Map<Long, long[]> got = new TreeMap<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), out, LongPairWritable.class,
                AggregateWritable.class)) {
            AggregateWritable a = (AggregateWritable) kv[1];
            long[] prev = got.put(((LongPairWritable) kv[0]).first(),
                    new long[] {a.count(), a.sum(), a.min(), a.max()});
            assertThat(prev).as("one row per group").isNull();
        }
        return got;
    }

    /**
     * The 7 splits on the one drive, 4 map tasks at a time on the LocalJobRunner: each task's
     * tasklet run is in the drive beside the others (several sessions' commands interleaved),
     * and the answer is the one of the same job run one split at a time, and Java's.
     */
    @Test
    void splitsOnOneDriveRunConcurrentlyWithTheSequentialAnswer() throws Exception {
        TaskletSpec spec = GroupAggregate.groupBy(Requests.REGION).value(Requests.VALUE)
                .ops(Op.COUNT, Op.SUM, Op.MIN, Op.MAX).maxGroups(6)
                .spec(Requests.LAYOUT, 64 * 1024, 0);
        Map<String, Map<Long, long[]>> answers = new TreeMap<>();
        Map<String, Long> runs = new TreeMap<>();
        for (int maps : new int[] {1, 4}) {
            String name = "agg-maps" + maps;
            DeviceJob job = job(name, spec, AggregateFormat.class, out(name));
            job.getConfiguration().setInt("mapreduce.local.map.tasks.maximum", maps);
            job.setCombinerClass(AggregateReducer.class);
            job.setReducerClass(AggregateReducer.class);
            job.setNumReduceTasks(1);
            assertThat(job.waitForCompletion(false)).as("job with %d map tasks at once", maps)
                    .isTrue();
            answers.put(name, aggregateRows(job, out(name)));
            runs.put(name, value(job.getCounters(), DeviceCounters.TASKLET_RUNS));
            assertThat(value(job.getCounters(), DeviceCounters.RECORDS_SCANNED)).isEqualTo(N);
        }
        Map<Long, long[]> expect = new TreeMap<>();
        for (Request r : data.all()) {
            long[] e = expect.computeIfAbsent((long) r.region(),
                    k -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
            e[0]++;
            e[1] += r.value();
            e[2] = Math.min(e[2], r.value());
            e[3] = Math.max(e[3], r.value());
        }
        assertThat(runs).containsEntry("agg-maps1", 7L).containsEntry("agg-maps4", 7L);
        Map<Long, long[]> seq = answers.get("agg-maps1");
        Map<Long, long[]> par = answers.get("agg-maps4");
        assertThat(par.keySet()).isEqualTo(seq.keySet()).isEqualTo(expect.keySet());
        seq.forEach((k, e) -> {
            assertThat(par.get(k)).as("region %d, concurrent", k).containsExactly(e);
            assertThat(e).as("region %d, sequential", k).containsExactly(expect.get(k));
        });
    }

    @Test
    void filterRecordsAndProjectionEqualJava() throws Exception {
        Predicate where = and(eq(Requests.REGION, 3), gt(Requests.VALUE, 0),
                prefix(Requests.METHOD, "GET"));
        DeviceJob job = job("filter", Filter.records(where).spec(Requests.LAYOUT, 16 * 1024, 0),
                RecordsFormat.class, out("filter"));
        job.setReducerClass(Reducer.class);
        job.setNumReduceTasks(1);
        assertThat(job.waitForCompletion(false)).isTrue();
        List<byte[]> expect = data.all().stream()
                .filter(r -> r.region() == 3 && r.value() > 0 && r.method().startsWith("GET"))
                .map(Requests::record).collect(Collectors.toList());
        List<Object[]> got = Drives.read(job.getConfiguration(), out("filter"),
                LongPairWritable.class, BytesWritable.class);
        assertThat(expect).hasSizeGreaterThan(100);
        assertThat(got).hasSameSizeAs(expect);
        for (int i = 0; i < expect.size(); i++) {
            assertThat(((BytesWritable) got.get(i)[1]).copyBytes()).as("match %d", i)
                    .containsExactly(expect.get(i));
        }

        DeviceJob proj = job("project", Filter.project(lt(Requests.VALUE, -900), Requests.ID,
                Requests.METHOD).spec(Requests.LAYOUT, 16 * 1024, 0), RecordsFormat.class,
                out("project"));
        proj.setNumReduceTasks(1);
        assertThat(proj.waitForCompletion(false)).isTrue();
        Projection p = new Projection(Requests.LAYOUT, Requests.ID, Requests.METHOD);
        List<String> rows = new ArrayList<>();
        for (Object[] kv : Drives.read(proj.getConfiguration(), out("project"),
                LongPairWritable.class, BytesWritable.class)) {
            List<Object> row = p.decode(((BytesWritable) kv[1]).copyBytes());
            rows.add(row.get(0) + " " + new String((byte[]) row.get(1), StandardCharsets.US_ASCII));
        }
        assertThat(rows).isEqualTo(data.all().stream().filter(r -> r.value() < -900)
                .map(r -> r.id() + " " + r.method()).collect(Collectors.toList()));
    }

    /**
     * Pages the drive reads for splits of {@code splitSize} over a file of {@code bytes}: each
     * split reads from the page of its first record's first byte to the page of its last
     * record's last byte (records are the ones starting in the split).
     */
    static long pagesRead(long bytes, long splitSize, int splits) {
        long total = 0;
        for (int i = 0; i < splits; i++) {
            long s = i * splitSize;
            long e = i == splits - 1 ? bytes : (i + 1) * splitSize;
            long first = (s + Requests.SIZE - 1) / Requests.SIZE;
            long last = (e + Requests.SIZE - 1) / Requests.SIZE - 1;
            total += (last * Requests.SIZE + Requests.SIZE - 1) / PAGE
                    - first * Requests.SIZE / PAGE + 1;
        }
        return total;
    }

    @Test
    void filterCountThroughToolRunner() throws Exception {
        Configuration c = new Configuration(conf);
        CountTool tool = new CountTool();
        // 160 KiB splits hold whole records and whole pages: no page is read twice
        int rc = ToolRunner.run(c, tool, new String[] {
            "-D", "mapreduce.input.fileinputformat.split.maxsize=163840",
            "-D", "mapreduce.job.reduces=1",
            input.toString(), out("count").toString()});
        assertThat(rc).isZero();
        Map<String, Long> got = new TreeMap<>();
        for (Object[] kv : Drives.read(c, out("count"), Text.class, LongWritable.class)) {
            got.put(kv[0].toString(), ((LongWritable) kv[1]).get());
        }
        long matches = data.all().stream().filter(r -> r.region() == 7 && r.value() >= 500)
                .count();
        assertThat(got).containsEntry("records", (long) N).containsEntry("matches", matches)
                .containsEntry("items", 0L);
        Counters counters = tool.job.getCounters();
        assertThat(value(counters, DeviceCounters.TASKLET_RUNS)).isEqualTo(5);
        assertThat(value(counters, DeviceCounters.PAGES_SCANNED))
                .isEqualTo((N * (long) Requests.SIZE + PAGE - 1) / PAGE);
        assertThat(tool.job.getConfiguration().getLong(
                "mapreduce.input.fileinputformat.split.maxsize", 0)).isEqualTo(163840);
    }

    /** A device job as users write one: a Tool, configured by -D options. */
    static final class CountTool extends Configured implements Tool {
        DeviceJob job;

        @Override
        public int run(String[] args) throws Exception {
            job = DeviceJob.getInstance(getConf(), "count");
            job.setDeviceMapper(Filter.count(and(eq(Requests.REGION, 7), Predicate.ge(
                    Requests.VALUE, 500))).spec(Requests.LAYOUT, 16 * 1024, 0));
            job.setDeviceMapperFormat(CountsFormat.class);
            job.setCombinerClass(LongSumReducer.class);
            job.setReducerClass(LongSumReducer.class);
            job.setOutputFormatClass(SequenceFileOutputFormat.class);
            job.addInputPath(new Path(args[0]));
            FileOutputFormat.setOutputPath(job, new Path(args[1]));
            return job.waitForCompletion(false) ? 0 : 1;
        }
    }

    @Test
    void topNPerGroupEqualsJavaWithTiesInInputOrder() throws Exception {
        TopN top = TopN.largest(5, Requests.VALUE).groupBy(Requests.REGION).project(Requests.ID);
        DeviceJob job = job("top", top.spec(Requests.LAYOUT, 64 * 1024, 0), TopNFormat.class,
                out("top"));
        job.setCombinerClass(TopNReducer.class);
        job.setReducerClass(TopNReducer.class);
        job.setNumReduceTasks(1);
        assertThat(job.waitForCompletion(false)).isTrue();

        Map<Long, List<Long>> expect = new TreeMap<>();
        for (int region = 0; region < REGIONS; region++) {
            int g = region;
            expect.put((long) g, data.all().stream().filter(r -> r.region() == g)
                    .sorted(Comparator.comparingLong(Request::value).reversed()) // stable
                    .limit(5).map(Request::id).collect(Collectors.toList()));
        }
        Map<Long, List<Long>> got = new TreeMap<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), out("top"),
                LongPairWritable.class, RankedWritable.class)) {
            long id = ByteBuffer.wrap(((RankedWritable) kv[1]).payload())
                    .order(ByteOrder.LITTLE_ENDIAN).getLong();
            got.computeIfAbsent(((LongPairWritable) kv[0]).first(), k -> new ArrayList<>())
                    .add(id);
        }
        assertThat(got).isEqualTo(expect);
    }

    @Test
    void badTaskletParameterFailsTheJobWithTheDrivesReason() throws Exception {
        // group-aggregate with ops 0x10, a bit the drive does not know: refused at init
        byte[] params = GroupAggregate.groupBy(Requests.REGION).params();
        params[4] = 0x10;
        TaskletSpec bad = new TaskletSpec(1, Requests.LAYOUT, params, 64 * 1024, 0);
        DeviceJob job = job("bad", bad, AggregateFormat.class, out("bad"));
        assertThatThrownBy(() -> job.waitForCompletion(false))
                .hasMessageContaining("the drive refused tasklet 1")
                .hasMessageContaining("the tasklet rejected its parameters");

        // without the preflight the map tasks meet the refusal and the job fails
        DeviceJob late = job("bad-late", bad, AggregateFormat.class, out("bad-late"));
        late.getConfiguration().setBoolean(DeviceJob.PREFLIGHT, false);
        assertThat(late.waitForCompletion(false)).isFalse();
    }

    @Test
    void aRunReportsMonotonicProgressToTheFilesPages() throws Exception {
        SmartSsdFileSystem fs = (SmartSsdFileSystem) input.getFileSystem(conf);
        SmartSsdDevice dev = fs.device();
        ObjectStat st = dev.lookup("/data/requests.bin");
        TaskletSpec spec = Filter.count(null).spec(Requests.LAYOUT, 16 * 1024, 0);
        List<TaskletProgress> seen = new ArrayList<>();
        try (TaskletRun run = TaskletRun.start(dev, spec, InputRange.whole(st.oid()),
                "/.smartssd-mapreduce/progress-test.out", Duration.ofMinutes(1), null)) {
            float fraction = 0;
            while (!run.finished()) {
                TaskletProgress p = run.next(Duration.ofSeconds(1));
                if (p != null) {
                    seen.add(p);
                    assertThat(run.fraction()).isGreaterThanOrEqualTo(fraction);
                    fraction = run.fraction();
                }
            }
            assertThat(run.fraction()).isEqualTo(1f);
            assertThat(run.output()).hasSize(32);
        }
        assertThat(seen).isNotEmpty();
        for (int i = 1; i < seen.size(); i++) {
            assertThat(seen.get(i).pagesDone()).isGreaterThanOrEqualTo(seen.get(i - 1).pagesDone());
        }
        TaskletProgress last = seen.get(seen.size() - 1);
        assertThat(last.state()).isEqualTo(TaskletState.DONE);
        assertThat(last.pagesDone()).isEqualTo(last.pagesTotal())
                .isEqualTo((N * (long) Requests.SIZE + PAGE - 1) / PAGE);
        // the output object is gone after close
        assertThat(dev.find("/.smartssd-mapreduce/progress-test.out")).isEmpty();
    }

    @Test
    void pagesOfMatchesOnceEachThoughSplitsSharePages() throws Exception {
        // 200 000-byte splits do not fall on page bounds: neighbours share a page
        DeviceJob job = job("pages", Filter.pages(and(eq(Requests.REGION, 2),
                gt(Requests.VALUE, 990))).spec(Requests.LAYOUT, 16 * 1024, 0),
                PagesFormat.class, out("pages"));
        job.getConfiguration().setLong("mapreduce.input.fileinputformat.split.maxsize", 200_000);
        job.setReducerClass(FirstValueReducer.class);
        job.setNumReduceTasks(1);
        assertThat(job.waitForCompletion(false)).isTrue();
        long oid = ((SmartSsdFileSystem) input.getFileSystem(conf)).device()
                .lookup("/data/requests.bin").oid();
        List<Long> expect = data.all().stream().filter(r -> r.region() == 2 && r.value() > 990)
                .map(r -> r.id() * Requests.SIZE / PAGE * PAGE).distinct()
                .collect(Collectors.toList());
        List<Long> got = new ArrayList<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), out("pages"),
                LongPairWritable.class, LongWritable.class)) {
            LongPairWritable k = (LongPairWritable) kv[0];
            assertThat(k.first()).isEqualTo(oid);
            assertThat(((LongWritable) kv[1]).get()).as("an LBA").isNotNegative();
            got.add(k.second());
        }
        assertThat(expect).isNotEmpty();
        assertThat(got).isEqualTo(expect);
    }

    @Test
    void grepAndProbeOutputsDecodeAsTheDriveWritesThem() throws Exception {
        StringBuilder text = new StringBuilder();
        List<String> hits = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            String line = "line " + i + (i % 7 == 0 ? " needle" : "");
            text.append(line).append('\n');
            if (i % 7 == 0) {
                hits.add(line);
            }
        }
        Path txt = new Path("smartssd://mrtest/data/lines.txt");
        byte[] bytes = text.toString().getBytes(StandardCharsets.US_ASCII);
        Drives.write(conf, txt, bytes);
        SmartSsdDevice dev = ((SmartSsdFileSystem) txt.getFileSystem(conf)).device();
        long oid = dev.lookup("/data/lines.txt").oid();
        org.smartssd.device.RecordLayout lines = org.smartssd.device.RecordLayout.lines(256);
        org.smartssd.device.tasklet.Grep grep = org.smartssd.device.tasklet.Grep.lines("needle");
        byte[] out = runOnDrive(dev, grep.spec(lines, 16 * 1024, 0), oid);
        org.smartssd.device.tasklet.Grep.Output g = grep.decode(out, lines);
        assertThat(g.lines()).isEqualTo(5000);
        assertThat(g.matches()).isEqualTo(hits.size());
        assertThat(g.matchingLines()).extracting(b -> new String(b, StandardCharsets.US_ASCII))
                .isEqualTo(hits);

        org.smartssd.device.tasklet.DramProbe probe =
                new org.smartssd.device.tasklet.DramProbe(16, 0x656e696c); // "line" read LE
        org.smartssd.device.tasklet.DramProbe.Output p = org.smartssd.device.tasklet.DramProbe
                .decode(runOnDrive(dev, probe.spec(lines, 4096, 0), oid));
        assertThat(p.pages()).isEqualTo((bytes.length + PAGE - 1) / PAGE);
        long expectMatches = 0;
        for (long page = 0; page < p.pages(); page++) {
            for (int w = 0; w < 16; w++) {
                long at = page * PAGE + w * 4L;
                if (at + 4 <= bytes.length && ByteBuffer.wrap(bytes, (int) at, 4)
                        .order(ByteOrder.LITTLE_ENDIAN).getInt() == 0x656e696c) {
                    expectMatches++;
                }
            }
        }
        assertThat(p.matchingLoads()).isEqualTo(expectMatches);
    }

    private static byte[] runOnDrive(SmartSsdDevice dev, TaskletSpec spec, long oid)
            throws Exception {
        try (TaskletRun run = TaskletRun.start(dev, spec, InputRange.whole(oid),
                "/.smartssd-mapreduce/direct-" + System.nanoTime() + ".out",
                Duration.ofMinutes(1), null)) {
            while (!run.finished()) {
                run.next(Duration.ofSeconds(1));
            }
            return run.output();
        }
    }

    private static long value(Counters c, DeviceCounters which) {
        Counter x = c.findCounter(which);
        return x.getValue();
    }
}
