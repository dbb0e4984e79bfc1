package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.SmartSsdFileSystem;
import org.smartssd.scan.DriveQueue;
import org.smartssd.scan.Placement;
import org.smartssd.scan.PlacementCalibration;

/**
 * Placement on a drive whose firmware predates ISP_QUEUE: smartssd-devd serves the drive
 * with {@code --withhold-opcodes ISP_QUEUE}, so the firmware answers it BAD_OPCODE as such
 * firmware does. The drive's queue is then this JVM's own account of the device work it
 * placed ({@link DriveQueue}): with none, {@code auto} plans as on an idle drive; with its
 * own runs pending it puts fewer splits on the drive; and whole jobs, planned and drained,
 * give the answer of plain Java.
 */
class DriveWithoutQueueTest {
    static final int N = 30_000;
    static final long SPLIT = 48 * 1024;
    static final String DRIVE = "oldfirmware";

    @Test
    void placementFallsBackToThisJvmsOwnAccount(@TempDir Path dir) throws Exception {
        Path img = dir.resolve("old.img");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 0);
        Configuration conf = Drives.local(dir);
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", SPLIT);
        // configured, so the plan does not depend on this machine's load
        conf.setDouble(Placement.HOST_NS_PER_BYTE, 120);
        Requests data = new Requests(N, 12, 7);
        org.apache.hadoop.fs.Path input =
                new org.apache.hadoop.fs.Path("smartssd://" + DRIVE + "/data/requests.bin");
        try (Devd devd = Devd.start(img, dir.resolve("old.sock"), Duration.ofSeconds(60),
                "--withhold-opcodes", "ISP_QUEUE")) {
            conf.set("smartssd.device." + DRIVE + ".uri", devd.uri());
            Drives.write(conf, input, data.bytes());
            SmartSsdDevice dev = ((SmartSsdFileSystem) FileSystem.get(
                    URI.create("smartssd://" + DRIVE + "/"), conf)).device();
            assertThat(dev.ispQueue()).as("the queue of a drive without ISP_QUEUE").isEmpty();
            DriveQueue.Pending none = DriveQueue.pending(DRIVE, dev);
            assertThat(none.drive()).isEmpty();
            assertThat(none.ns()).isZero();
            assertThat(none).hasToString("0 ns (this JVM's runs only)");

            Configuration planConf = new Configuration(conf);
            planConf.setBoolean(Placement.DRAIN, false);
            DeviceJob plan = Drives.placedAggregateJob(planConf, "plan", Placement.AUTO);
            plan.addInputPath(input);
            FileOutputFormat.setOutputPath(plan,
                    new org.apache.hadoop.fs.Path(dir.resolve("out-plan").toUri()));
            List<InputSplit> planned = new DeviceInputFormat().getSplits(plan);
            long idle = Drives.onDevice(planned);
            assertThat(idle).as("splits on the drive").isPositive()
                    .isLessThan(planned.size());
            List<FileSplit> splits = new ArrayList<>();
            planned.forEach(s -> splits.add((FileSplit) s));
            PlacementCalibration probed = PlacementCalibration.load(plan.getConfiguration(),
                    DRIVE);

            // device work this JVM placed and has not ended: 4096 pages at the profile's price
            long pageNs = dev.modelCounters().orElseThrow().prices().fwPageOverheadNs();
            long own = 4096 * pageNs;
            DriveQueue.add(DRIVE, own);
            try {
                DriveQueue.Pending busy = DriveQueue.pending(DRIVE, dev);
                assertThat(busy.ns()).isEqualTo(own);
                assertThat(busy.drive()).isEmpty();
                assertThat(Drives.onDevice(conf, splits, probed))
                        .as("splits on the drive with this JVM's own runs pending (%s), of %d; "
                                + "%d idle", busy, splits.size(), idle)
                        .isLessThan(idle);
            } finally {
                DriveQueue.add(DRIVE, -own);
            }
            assertThat(Drives.onDevice(conf, splits, probed)).as("with nothing pending")
                    .isEqualTo(idle);

            for (boolean drain : new boolean[] {false, true}) {
                Configuration jobConf = new Configuration(conf);
                jobConf.setBoolean(Placement.DRAIN, drain);
                DeviceJob job = Drives.placedAggregateJob(jobConf, "auto, drain " + drain,
                        Placement.AUTO);
                job.addInputPath(input);
                org.apache.hadoop.fs.Path out =
                        new org.apache.hadoop.fs.Path(dir.resolve("out-" + drain).toUri());
                FileOutputFormat.setOutputPath(job, out);
                assertThat(job.waitForCompletion(false)).as("job, drain %s: %s", drain,
                        job.failureReason()).isTrue();
                Map<Long, long[]> expect = data.statsByRegion();
                Map<Long, long[]> got = Drives.readStats(job.getConfiguration(), out);
                assertThat(got.keySet()).isEqualTo(expect.keySet());
                expect.forEach((k, e) -> assertThat(got.get(k)).as("drain %s, region %d",
                        drain, k).containsExactly(e));
                Counters c = job.getCounters();
                assertThat(c.findCounter(PlacementCounters.SPLITS_ON_DEVICE).getValue()
                        + c.findCounter(PlacementCounters.SPLITS_ON_HOST).getValue())
                        .as("drain %s", drain).isEqualTo(splits.size());
                assertThat(c.findCounter(PlacementCounters.SPLITS_ON_DEVICE).getValue())
                        .as("drain %s: splits on the drive", drain).isPositive();
            }
            assertThat(DriveQueue.ownNs(DRIVE)).as("every run's account given back").isZero();
        }
    }
}
