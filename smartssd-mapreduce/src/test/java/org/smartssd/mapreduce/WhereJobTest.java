package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.smartssd.device.tasklet.Predicate.gt;
import static org.smartssd.device.tasklet.Predicate.prefix;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.GroupAggregate.Op;
import org.smartssd.device.tasklet.TopN;
import org.smartssd.device.tasklet.WhereParams;
import org.smartssd.mapreduce.Requests.Request;
import org.smartssd.userjob.RegionTextFormat;

/**
 * Device jobs whose group-aggregate or top-N carries a WHERE stage, read back by the stock
 * formats and by a user's format from another package, on the LocalJobRunner over an
 * embedded emulated drive; each answer against plain Java over the same records.
 */
class WhereJobTest {
    static final int N = 20_000;
    static final int REGIONS = 10;
    static final long VALUE_OVER = 20;

    @TempDir
    static java.nio.file.Path dir;
    static Configuration conf;
    static Requests data;
    static Path input;

    @BeforeAll
    static void writeInput() throws Exception {
        conf = Drives.local(dir);
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", 128 * 1024);
        data = new Requests(N, REGIONS, 7);
        input = new Path("smartssd://wheretest/data/requests.bin");
        Drives.write(conf, input, data.bytes());
    }

    private static DeviceJob job(String name, TaskletSpec spec,
                                 Class<? extends DeviceMapperFormat<?, ?>> format)
            throws Exception {
        DeviceJob job = DeviceJob.getInstance(new Configuration(conf), name);
        job.setDeviceMapper(spec);
        job.setDeviceMapperFormat(format);
        job.addInputPath(input);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileOutputFormat.setOutputPath(job, out(name));
        return job;
    }

    private static Path out(String name) {
        return new Path(dir.resolve("out-" + name).toUri());
    }

    private static TaskletSpec statsOverTwenty() {
        return WhereParams.groupAggregateSpec(GroupAggregate.groupBy(Requests.REGION)
                        .value(Requests.VALUE).ops(Op.COUNT, Op.SUM, Op.MIN, Op.MAX),
                gt(Requests.VALUE, VALUE_OVER), Requests.LAYOUT, 64 * 1024, 0);
    }

    /** Per region of the requests with value > 20: count, sum, min, max. */
    private static Map<Long, List<Long>> expectedStats() {
        Map<Long, List<Long>> expect = new TreeMap<>();
        for (int region = 0; region < REGIONS; region++) {
            int g = region;
            List<Long> v = data.all().stream()
                    .filter(r -> r.region() == g && r.value() > VALUE_OVER)
                    .map(Request::value).toList();
            expect.put((long) g, List.of((long) v.size(), v.stream().mapToLong(x -> x).sum(),
                    v.stream().mapToLong(x -> x).min().orElseThrow(),
                    v.stream().mapToLong(x -> x).max().orElseThrow()));
        }
        return expect;
    }

    private static List<Long> stats(AggregateWritable a) {
        return List.of(a.count(), a.sum(), a.min(), a.max());
    }

    @Test
    void groupAggregateWithWhereThroughTheStockFormat() throws Exception {
        DeviceJob job = job("agg-where", statsOverTwenty(), AggregateFormat.class);
        job.setCombinerClass(AggregateReducer.class);
        job.setReducerClass(AggregateReducer.class);
        job.setNumReduceTasks(1);
        assertThat(job.waitForCompletion(false)).isTrue();

        Map<Long, List<Long>> got = new TreeMap<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), out("agg-where"),
                LongPairWritable.class, AggregateWritable.class)) {
            got.put(((LongPairWritable) kv[0]).first(), stats((AggregateWritable) kv[1]));
        }
        assertThat(got).isEqualTo(expectedStats());
    }

    @Test
    void groupAggregateWithWhereThroughAUsersFormatInAnotherPackage() throws Exception {
        DeviceJob job = job("agg-where-user", statsOverTwenty(), RegionTextFormat.class);
        job.setNumReduceTasks(0); // the partials of each split, merged below
        assertThat(job.waitForCompletion(false)).isTrue();

        Map<Long, AggregateWritable> merged = new TreeMap<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), out("agg-where-user"),
                Text.class, AggregateWritable.class)) {
            long region = Long.parseLong(kv[0].toString().substring("region-".length()));
            AggregateWritable a = (AggregateWritable) kv[1];
            assertThat(a.ops()).isEqualTo(Op.COUNT.bit() | Op.SUM.bit() | Op.MIN.bit()
                    | Op.MAX.bit());
            merged.merge(region, a, (x, y) -> {
                x.merge(y);
                return x;
            });
        }
        Map<Long, List<Long>> got = new TreeMap<>();
        merged.forEach((k, a) -> got.put(k, stats(a)));
        assertThat(got).isEqualTo(expectedStats());
    }

    @Test
    void topNWithWhereThroughTheStockFormat() throws Exception {
        TopN top = TopN.largest(3, Requests.VALUE).groupBy(Requests.REGION).project(Requests.ID);
        TaskletSpec spec = WhereParams.topNSpec(top, prefix(Requests.METHOD, "POST"),
                Requests.LAYOUT, 64 * 1024, 0);
        DeviceJob job = job("top-where", spec, TopNFormat.class);
        job.setCombinerClass(TopNReducer.class);
        job.setReducerClass(TopNReducer.class);
        job.setNumReduceTasks(1);
        assertThat(job.waitForCompletion(false)).isTrue();

        Predicate<Request> post = r -> r.method().equals("POST");
        Map<Long, List<Long>> expect = new TreeMap<>();
        for (int region = 0; region < REGIONS; region++) {
            int g = region;
            expect.put((long) g, data.all().stream().filter(r -> r.region() == g && post.test(r))
                    .sorted(Comparator.comparingLong(Request::value).reversed()) // stable
                    .limit(3).map(Request::id).collect(Collectors.toList()));
        }
        Map<Long, List<Long>> got = new TreeMap<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), out("top-where"),
                LongPairWritable.class, RankedWritable.class)) {
            long id = ByteBuffer.wrap(((RankedWritable) kv[1]).payload())
                    .order(ByteOrder.LITTLE_ENDIAN).getLong();
            got.computeIfAbsent(((LongPairWritable) kv[0]).first(), k -> new ArrayList<>())
                    .add(id);
        }
        assertThat(got).isEqualTo(expect);
    }
}
