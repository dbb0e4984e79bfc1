package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.GroupAggregate.Op;
import org.smartssd.mapreduce.Requests.Request;

/**
 * One node, three drives ({@code smartssd.device.dN.uri} each, embedded emulated drives): a
 * device job over a file on each drive, three map slots on the LocalJobRunner, answers the
 * same as the job over the whole data on one drive and as plain Java over the records.
 */
class MultiDriveJobTest {
    static final int N = 30_000;
    static final int REGIONS = 9;
    static final int DRIVES = 3;
    static final long SPLIT = 64 * 1024;

    @TempDir
    static java.nio.file.Path dir;
    static Configuration conf;
    static Requests data;
    static final List<Path> parts = new ArrayList<>();
    static Path whole;

    @BeforeAll
    static void writeInputs() throws Exception {
        conf = Drives.local(dir);
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", SPLIT);
        conf.setInt("mapreduce.local.map.tasks.maximum", DRIVES);
        data = new Requests(N, REGIONS, 1234);
        byte[] all = data.bytes();
        int per = N / DRIVES * Requests.SIZE;
        for (int d = 0; d < DRIVES; d++) {
            conf.set("smartssd.device.md" + d + ".host", "node-" + d);
            Path p = new Path("smartssd://md" + d + "/data/part" + d + ".bin");
            Drives.write(conf, p, Arrays.copyOfRange(all, d * per, (d + 1) * per));
            parts.add(p);
        }
        whole = new Path("smartssd://mdone/data/all.bin");
        Drives.write(conf, whole, all);
    }

    private static Map<Long, List<Long>> run(String name, List<Path> inputs) throws Exception {
        TaskletSpec spec = GroupAggregate.groupBy(Requests.REGION).value(Requests.VALUE)
                .ops(Op.COUNT, Op.SUM, Op.MIN, Op.MAX).spec(Requests.LAYOUT, 64 * 1024, 0);
        DeviceJob job = DeviceJob.getInstance(new Configuration(conf), name);
        job.setDeviceMapper(spec);
        job.setDeviceMapperFormat(AggregateFormat.class);
        job.setCombinerClass(AggregateReducer.class);
        job.setReducerClass(AggregateReducer.class);
        for (Path p : inputs) {
            job.addInputPath(p);
        }
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        Path out = new Path(dir.resolve("out-" + name).toUri());
        FileOutputFormat.setOutputPath(job, out);
        assertThat(job.waitForCompletion(true)).as("job %s", name).isTrue();
        assertThat(job.getCounters().findCounter(DeviceCounters.RECORDS_SCANNED).getValue())
                .isEqualTo(N);
        Map<Long, List<Long>> got = new TreeMap<>();
        for (Object[] kv : Drives.read(conf, out, LongPairWritable.class,
                AggregateWritable.class)) {
            AggregateWritable a = (AggregateWritable) kv[1];
            got.put(((LongPairWritable) kv[0]).first(),
                    List.of(a.count(), a.sum(), a.min(), a.max()));
        }
        return got;
    }

    @Test
    void jobOverThreeDrivesEqualsOneDriveAndJava() throws Exception {
        Map<Long, List<Long>> expect = new TreeMap<>();
        for (Request r : data.all()) {
            List<Long> e = expect.getOrDefault((long) r.region(),
                    List.of(0L, 0L, Long.MAX_VALUE, Long.MIN_VALUE));
            expect.put((long) r.region(), List.of(e.get(0) + 1, e.get(1) + r.value(),
                    Math.min(e.get(2), r.value()), Math.max(e.get(3), r.value())));
        }
        assertThat(run("three-drives", parts)).isEqualTo(expect);
        assertThat(run("one-drive", List.of(whole))).isEqualTo(expect);
    }

    @Test
    void splitsTakeTheDrivesInTurnAndNameEachDrivesHost() throws Exception {
        Job job = Job.getInstance(new Configuration(conf));
        FileInputFormat.setInputPaths(job, parts.toArray(new Path[0]));
        List<InputSplit> splits = new DeviceInputFormat().getSplits(job);
        // 200 000 bytes per drive in 64 KiB splits: 3 per drive (the last within the 10 % slop)
        assertThat(splits).hasSize(DRIVES * 3);
        List<String> drives = new ArrayList<>();
        for (InputSplit s : splits) {
            FileSplit f = (FileSplit) s;
            String d = f.getPath().toUri().getAuthority();
            drives.add(d);
            assertThat(f.getLocations()).containsExactly("node-" + d.substring(2));
        }
        assertThat(drives).containsExactly("md0", "md1", "md2", "md0", "md1", "md2",
                "md0", "md1", "md2");
    }
}
