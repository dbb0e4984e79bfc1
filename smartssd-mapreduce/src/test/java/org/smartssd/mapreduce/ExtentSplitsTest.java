package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.Extent;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.GroupAggregate.Op;
import org.smartssd.fs.SmartSsdFileSystem;
import org.smartssd.mapreduce.Requests.Request;

/**
 * Splits follow the file's extents on the drive: a file written interleaved with another
 * lies in several extents, and its splits are those extents (cut to the split size), each
 * naming the drive's host. Expected bounds come from the drive's EXTENTS reply.
 */
class ExtentSplitsTest {
    static final int N = 30_000;
    static final int CHUNK = 100_000; // bytes written to each file in turn

    @TempDir
    static java.nio.file.Path dir;

    @Test
    void splitsFollowExtentsAndTheAnswerEqualsJava() throws Exception {
        Configuration conf = Drives.local(dir);
        conf.set("smartssd.device.xtest.host", "drive-host-7");
        Requests data = new Requests(N, 10, 7);
        byte[] bytes = data.bytes();
        Path input = new Path("smartssd://xtest/data/a.bin");
        Path other = new Path("smartssd://xtest/data/b.bin");
        SmartSsdFileSystem fs = (SmartSsdFileSystem) input.getFileSystem(conf);
        try (FSDataOutputStream a = fs.create(input, true);
             FSDataOutputStream b = fs.create(other, true)) {
            for (int at = 0; at < bytes.length; at += CHUNK) {
                a.write(bytes, at, Math.min(CHUNK, bytes.length - at));
                a.hflush();
                b.write(new byte[CHUNK]);
                b.hflush();
            }
        }
        SmartSsdDevice dev = fs.device();
        long oid = dev.lookup(fs.storeContext().pathToKey(fs.makeQualified(input))).oid();
        List<Extent> ext = dev.extents(oid, 0, bytes.length);
        assertThat(ext).as("interleaved writes leave the file in pieces").hasSizeGreaterThanOrEqualTo(3);
        List<Long> extentStarts = new ArrayList<>();
        for (Extent e : ext) {
            extentStarts.add(e.offset());
        }

        // split size above every extent, and under 10x the last one: one split per extent,
        // bounds = extent bounds
        long big = 1L << 20;
        List<long[]> got = splits(conf, input, big);
        List<long[]> expect = new ArrayList<>();
        for (int i = 0; i < ext.size(); i++) {
            long end = i + 1 < ext.size() ? ext.get(i + 1).offset() : bytes.length;
            assertThat(end - ext.get(i).offset()).isBetween(big / 10, big);
            expect.add(new long[] {ext.get(i).offset(), end});
        }
        assertThat(got).usingElementComparator(Arrays::compare).containsExactlyElementsOf(expect);

        // a small split size cuts extents into slices, but never across an extent bound
        long small = 64 * 1024;
        got = splits(conf, input, small);
        assertThat(got.get(0)[0]).isZero();
        assertThat(got.get(got.size() - 1)[1]).isEqualTo(bytes.length);
        List<Long> starts = new ArrayList<>();
        for (int i = 0; i < got.size(); i++) {
            if (i > 0) {
                assertThat(got.get(i)[0]).as("contiguous").isEqualTo(got.get(i - 1)[1]);
            }
            starts.add(got.get(i)[0]);
            long len = got.get(i)[1] - got.get(i)[0];
            assertThat(len).isLessThanOrEqualTo((long) (small * 1.1));
            for (long s : extentStarts) {
                assertThat(s > got.get(i)[0] && s < got.get(i)[1])
                        .as("split %s crosses extent start %d", Arrays.toString(got.get(i)), s)
                        .isFalse();
            }
        }
        assertThat(starts).containsAll(extentStarts.stream()
                .filter(s -> s < bytes.length).toList());

        // the job over those splits still gives the plain-Java answer
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", small);
        TaskletSpec spec = GroupAggregate.groupBy(Requests.REGION).value(Requests.VALUE)
                .ops(Op.COUNT, Op.SUM).spec(Requests.LAYOUT, 64 * 1024, 0);
        Path out = new Path(dir.resolve("out").toUri());
        DeviceJob job = DeviceJob.getInstance(new Configuration(conf), "extents");
        job.setDeviceMapper(spec);
        job.setDeviceMapperFormat(AggregateFormat.class);
        job.setCombinerClass(AggregateReducer.class);
        job.setReducerClass(AggregateReducer.class);
        job.addInputPath(input);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileOutputFormat.setOutputPath(job, out);
        assertThat(job.waitForCompletion(false)).isTrue();
        Map<Long, List<Long>> want = new TreeMap<>();
        for (Request r : data.all()) {
            List<Long> e = want.computeIfAbsent((long) r.region(),
                    k -> new ArrayList<>(List.of(0L, 0L)));
            e.set(0, e.get(0) + 1);
            e.set(1, e.get(1) + r.value());
        }
        Map<Long, List<Long>> have = new TreeMap<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), out, LongPairWritable.class,
                AggregateWritable.class)) {
            AggregateWritable a = (AggregateWritable) kv[1];
            have.put(((LongPairWritable) kv[0]).first(), List.of(a.count(), a.sum()));
        }
        assertThat(have).isEqualTo(want);
    }

    /** The [start, end) bounds of the input format's splits, each checked for the host. */
    private static List<long[]> splits(Configuration conf, Path input, long maxSize)
            throws Exception {
        DeviceJob job = DeviceJob.getInstance(new Configuration(conf), "splits");
        job.getConfiguration().setLong("mapreduce.input.fileinputformat.split.maxsize",
                maxSize);
        job.addInputPath(input);
        List<long[]> out = new ArrayList<>();
        for (InputSplit s : new DeviceInputFormat().getSplits(job)) {
            assertThat(s.getLocations()).containsExactly("drive-host-7");
            FileSplit f = (FileSplit) s;
            out.add(new long[] {f.getStart(), f.getStart() + f.getLength()});
        }
        return out;
    }
}
