package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.util.ReflectionUtils;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.GroupAggregate.Op;
import org.smartssd.scan.Placement;
import org.smartssd.scan.PlacementCalibration;
import org.smartssd.scan.ScanRange;
import org.smartssd.scan.SplitPlanner;

/** Configurations and file helpers for the device job tests. */
final class Drives {
    private Drives() {
    }

    /** LocalJobRunner with an embedded emulated drive under {@code dir}. */
    static Configuration local(Path dir) {
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        // waitForCompletion polls every 5 s by default: each short local job would sleep that long
        conf.setInt("mapreduce.client.completion.pollinterval", 20);
        conf.setBoolean("smartssd.device.embedded.allowed", true);
        conf.set("smartssd.device.embedded.dir", dir.resolve("drives").toString());
        conf.set("mapreduce.cluster.local.dir", dir.resolve("mr-local").toString());
        conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
        conf.set("mapreduce.jobtracker.staging.root.dir", dir.resolve("staging").toString());
        conf.set("mapreduce.jobtracker.system.dir", dir.resolve("system").toString());
        return conf;
    }

    /** A group-aggregate job over {@link Requests} (count, sum, min, max by region) with the
     *  host version {@link RequestStatsHostMapper}, in {@code placement}, one reduce, to a
     *  SequenceFile; the caller adds inputs and the output folder. */
    static DeviceJob placedAggregateJob(Configuration conf, String name, Placement placement)
            throws IOException {
        DeviceJob job = DeviceJob.getInstance(conf, name);
        job.setDeviceMapper(GroupAggregate.groupBy(Requests.REGION).value(Requests.VALUE)
                .ops(Op.COUNT, Op.SUM, Op.MIN, Op.MAX).spec(Requests.LAYOUT, 64 * 1024, 0));
        job.setDeviceMapperFormat(AggregateFormat.class);
        job.setHostMapper(RequestStatsHostMapper.class);
        job.setPlacement(placement);
        job.setReducerClass(AggregateReducer.class);
        job.setNumReduceTasks(1);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        return job;
    }

    static void write(Configuration conf, org.apache.hadoop.fs.Path p, byte[] data)
            throws IOException {
        FileSystem fs = p.getFileSystem(conf);
        try (FSDataOutputStream out = fs.create(p, true)) {
            out.write(data);
        }
    }

    /** A group-aggregate job's output as region -> count, sum, min, max; one row a region. */
    static Map<Long, long[]> readStats(Configuration conf, org.apache.hadoop.fs.Path dir)
            throws IOException {
        Map<Long, long[]> got = new TreeMap<>();
        for (Object[] kv : read(conf, dir, LongPairWritable.class, AggregateWritable.class)) {
            AggregateWritable a = (AggregateWritable) kv[1];
            LongPairWritable k = (LongPairWritable) kv[0];
            if (k.second() != 0 || got.put(k.first(),
                    new long[] {a.count(), a.sum(), a.min(), a.max()}) != null) {
                throw new IOException(dir + ": group " + k + " is not one row per region");
            }
        }
        return got;
    }

    /** Every (key, value) of the part files of a SequenceFile output folder, in order. */
    static <K extends Writable, V extends Writable> List<Object[]> read(Configuration conf,
            org.apache.hadoop.fs.Path dir, Class<K> kc, Class<V> vc) throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        List<Object[]> out = new ArrayList<>();
        for (var st : fs.listStatus(dir, p -> p.getName().startsWith("part-"))) {
            try (SequenceFile.Reader r = new SequenceFile.Reader(conf,
                    SequenceFile.Reader.file(st.getPath()))) {
                for (;;) {
                    K k = ReflectionUtils.newInstance(kc, conf);
                    V v = ReflectionUtils.newInstance(vc, conf);
                    if (!r.next(k, v)) {
                        break;
                    }
                    out.add(new Object[] {k, v});
                }
            }
        }
        return out;
    }

    /** The splits on the drive in {@code auto}'s plan, with the drive's queue read now. */
    static long onDevice(Configuration conf, List<FileSplit> splits, PlacementCalibration cal)
            throws Exception {
        List<ScanRange> ranges = new java.util.ArrayList<>();
        for (FileSplit s : splits) {
            ranges.add(new ScanRange(s.getPath(), s.getStart(), s.getLength(),
                    s.getLocations()));
        }
        return SplitPlanner.place(conf, ranges, Placement.AUTO, first -> cal).stream()
                .filter(p -> p.side() == Placement.DEVICE).count();
    }

    /** The splits on the drive in a plan that {@code getSplits} made. */
    static long onDevice(List<InputSplit> splits) {
        assertThat(splits).allMatch(s -> s instanceof PlacedSplit);
        return splits.stream().filter(s -> ((PlacedSplit) s).side() == Placement.DEVICE)
                .count();
    }
}
