package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.scan.Placement;
import org.smartssd.scan.DrainScheduler;

/**
 * {@code placement=auto} drained at run time ({@link DrainScheduler}) against the plan made
 * before the job, on the LocalJobRunner with an embedded drive, over a file whose cost on the
 * drive changes along it: its first part has 12 regions, the rest thousands, so the drive's
 * group table spills there and its runs send far more output over the link than the first
 * split's probes (which the estimates come from) say. The host's cost is the same per byte
 * everywhere. Each answer equals plain Java; the drain's modelled job time is below the
 * plan's and both single sides' by a fifth, within 10 % of the work shared at the sides' true
 * rates, and repeats to the last digit. (One run: device alone 162.1 ms, host alone 81.0,
 * the plan 79.0 (its device side estimated 40.6), drained 55.8; the shared bound 54.0.)
 */
class DrainedJobTest {
    // the cheap part is longer than the probes' 32 pages from the file's start
    static final int CHEAP = 16_384;
    static final int COSTLY = 16_384;
    static final long SPLIT = 48 * 1024;

    @TempDir
    static java.nio.file.Path dir;
    static Configuration conf;
    static Map<Long, long[]> expect;
    static Path input;

    @BeforeAll
    static void writeInput() throws Exception {
        conf = Drives.local(dir);
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", SPLIT);
        conf.setDouble(Placement.HOST_NS_PER_BYTE, 120);   // as PlacedJobTest: both sides work
        Requests few = new Requests(CHEAP, 12, 5);
        Requests many = new Requests(COSTLY, 20_000, 6);
        byte[] a = few.bytes();
        byte[] b = many.bytes();
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        expect = new TreeMap<>(few.statsByRegion());
        many.statsByRegion().forEach((k, v) -> expect.merge(k, v, (x, y) -> new long[] {
            x[0] + y[0], x[1] + y[1], Math.min(x[2], y[2]), Math.max(x[3], y[3])}));
        input = new Path("smartssd://draintest/data/requests.bin");
        Drives.write(conf, input, all);
    }

    /** The job's modelled time: the later of the drive's and the host's modelled work. */
    static long modelled(Counters c) {
        return Math.max(c.findCounter(PlacementCounters.MODELLED_DEVICE_NS).getValue(),
                c.findCounter(PlacementCounters.MODELLED_HOST_NS).getValue());
    }

    @Test
    void drainedAutoBeatsThePlanAndEitherSideAlone() throws Exception {
        Counters device = run(Placement.DEVICE, false);
        Counters host = run(Placement.HOST, false);
        Counters planned = run(Placement.AUTO, false);
        Counters drained = run(Placement.AUTO, true);
        long d = modelled(device);
        long h = modelled(host);
        long p = modelled(planned);
        long r = modelled(drained);
        String figures = String.format("modelled ns: device %d, host %d, planned %d (device "
                + "estimated %d, modelled %d), drained %d (%d rounds, %d splits moved)", d, h, p,
                planned.findCounter(PlacementCounters.ESTIMATED_DEVICE_NS).getValue(),
                planned.findCounter(PlacementCounters.MODELLED_DEVICE_NS).getValue(), r,
                drained.findCounter(PlacementCounters.DRAIN_ROUNDS).getValue(),
                drained.findCounter(PlacementCounters.SPLITS_MOVED_BY_DRAIN).getValue());
        System.out.println("DrainedJobTest " + figures);
        // the drain's reference: the work shared between both sides at their true rates
        double bound = (double) d * h / (d + h);
        assertThat((double) r).as(figures).isLessThan(p * 0.8).isLessThan(Math.min(d, h) * 0.8)
                .isLessThanOrEqualTo(bound * 1.10);
        assertThat(drained.findCounter(PlacementCounters.SPLITS_MOVED_BY_DRAIN).getValue())
                .as(figures).isPositive();
        assertThat(drained.findCounter(PlacementCounters.DRAIN_ROUNDS).getValue()).isGreaterThan(1);
        assertThat(planned.findCounter(PlacementCounters.DRAIN_ROUNDS).getValue()).isZero();

        Counters again = run(Placement.AUTO, true);
        for (PlacementCounters k : new PlacementCounters[] {PlacementCounters.SPLITS_ON_DEVICE,
                PlacementCounters.SPLITS_ON_HOST, PlacementCounters.MODELLED_DEVICE_NS,
                PlacementCounters.MODELLED_HOST_NS, PlacementCounters.DRAIN_ROUNDS}) {
            assertThat(again.findCounter(k).getValue()).as("%s, run again", k)
                    .isEqualTo(drained.findCounter(k).getValue());
        }
    }

    private Counters run(Placement placement, boolean drain) throws Exception {
        Configuration c = new Configuration(conf);
        c.setBoolean(Placement.DRAIN, drain);
        DeviceJob job = Drives.placedAggregateJob(c, "drain " + placement + " " + drain + " "
                + UUID.randomUUID(), placement);
        job.addInputPath(input);
        Path out = new Path(dir.resolve("out-" + UUID.randomUUID()).toUri());
        FileOutputFormat.setOutputPath(job, out);
        assertThat(job.waitForCompletion(false)).as("job: %s", job.failureReason()).isTrue();
        Map<Long, long[]> got = Drives.readStats(job.getConfiguration(), out);
        assertThat(got.keySet()).isEqualTo(expect.keySet());
        expect.forEach((k, e) -> assertThat(got.get(k)).as("region %d", k).containsExactly(e));
        Counters counters = job.getCounters();
        long splits = ((CHEAP + COSTLY) * (long) Requests.SIZE + SPLIT - 1) / SPLIT;
        assertThat(counters.findCounter(PlacementCounters.SPLITS_ON_DEVICE).getValue()
                + counters.findCounter(PlacementCounters.SPLITS_ON_HOST).getValue())
                .isEqualTo(splits);
        assertThat(counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue())
                .isEqualTo(CHEAP + COSTLY);
        return counters;
    }
}
