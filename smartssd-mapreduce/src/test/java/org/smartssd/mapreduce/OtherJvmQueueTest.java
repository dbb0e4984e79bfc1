package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
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
import org.smartssd.scan.SplitPlanner;

/**
 * Placement sees another JVM's work on the drive: two JVMs on one smartssd-devd. This JVM
 * plans a job's splits with {@code auto} on the idle drive; a second JVM
 * ({@link BusyDrivePeer}) executes a long tasklet run on the drive; this JVM plans the same
 * splits again while that run is queued, and puts fewer splits on the drive: the drive's
 * queue (ISP_QUEUE) starts the drive's side, and this JVM placed nothing itself. With the
 * run gone the plan is the idle one again.
 *
 * <p>Deterministic by construction, not by timing: while the other JVM's run is queued the
 * daemon runs {@code --background manual}, so nothing in the background runs and the run
 * stays where EXECUTE left it (no page done) until the peer destroys it. The drive then
 * reports exactly its pages, each at the profile's price of a page. The planner's
 * calibration probes are tasklet runs, which need the background to run: the first plan is
 * made through {@link DeviceInputFormat#getSplits} on the same image served by a daemon
 * whose background runs (the probes run to their end), and the plans on the held drive take
 * the calibration it probed (stored in its job configuration) through the same
 * {@link SplitPlanner#place} with the drive's queue read from the drive; on the idle held
 * drive that plan equals the first. The plans are from counted work and configured rates.
 */
class OtherJvmQueueTest {
    static final int N = 30_000;
    static final long SPLIT = 48 * 1024;
    /** The other JVM's run: 4096 pages of 100000 DRAM loads, none of them done. */
    static final int BUSY_PAGES = 4096;
    static final long BUSY_ACCESSES = 100_000;

    @Test
    void anotherJvmsRunOnTheDriveMovesSplitsToTheHost(@TempDir Path dir) throws Exception {
        Path img = dir.resolve("busy.img");
        Path sock = dir.resolve("busy.sock");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 0);
        Configuration conf = Drives.local(dir);
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", SPLIT);
        // configured, so the plan does not depend on this machine's load
        conf.setDouble(Placement.HOST_NS_PER_BYTE, 120);
        // the plan made before the job is this test's subject: its splits as the plan put them
        conf.setBoolean(Placement.DRAIN, false);
        org.apache.hadoop.fs.Path input =
                new org.apache.hadoop.fs.Path("smartssd://busy/data/requests.bin");
        long idle;
        List<FileSplit> splits = new ArrayList<>();
        PlacementCalibration probed;
        try (Devd devd = Devd.start(img, sock, Duration.ofSeconds(60))) {
            conf.set("smartssd.device.busy.uri", devd.uri());
            Drives.write(conf, input, new Requests(N, 12, 99).bytes());
            Drives.write(conf, new org.apache.hadoop.fs.Path("smartssd://busy/data/busy.bin"),
                    new byte[BUSY_PAGES * 8192]);
            DeviceJob job = Drives.placedAggregateJob(new Configuration(conf), "plan idle",
                    Placement.AUTO);
            job.addInputPath(input);
            FileOutputFormat.setOutputPath(job,
                    new org.apache.hadoop.fs.Path(dir.resolve("out-idle").toUri()));
            List<InputSplit> planned = new DeviceInputFormat().getSplits(job);
            idle = Drives.onDevice(planned);
            for (InputSplit s : planned) {
                splits.add((FileSplit) s);
            }
            probed = PlacementCalibration.load(job.getConfiguration(), "busy");
            // its connection ends with this daemon; the plans below open the next one's
            FileSystem.get(URI.create("smartssd://busy/"), conf).close();
        }
        assertThat(idle).as("splits on the idle drive").isPositive();
        assertThat(idle).as("splits on the host on the idle drive").isLessThan(splits.size());

        // the same image and socket, nothing in the background from now on
        try (Devd devd = Devd.start(img, sock, Duration.ofSeconds(60),
                "--background", "manual")) {
            SmartSsdDevice dev = ((SmartSsdFileSystem) FileSystem.get(
                    URI.create("smartssd://busy/"), conf)).device();
            long pageNs = dev.modelCounters().orElseThrow().prices().fwPageOverheadNs();
            assertThat(pageNs).as("the profile's price of a page").isPositive();
            assertThat(DriveQueue.pending("busy", dev).drive()).get()
                    .satisfies(q -> assertThat(q.instances()).isZero());
            assertThat(Drives.onDevice(conf, splits, probed)).as("the idle plan from its calibration")
                    .isEqualTo(idle);

            Process peer = startPeer(devd.uri());
            ExecutorService io = Executors.newSingleThreadExecutor();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(
                    peer.getInputStream(), StandardCharsets.UTF_8));
                 OutputStream in = peer.getOutputStream()) {
                assertThat(line(io, out, "the peer's EXECUTE")).isEqualTo(
                        "QUEUED " + BUSY_PAGES + " pages, 0 done");
                DriveQueue.Pending seen = DriveQueue.pending("busy", dev);
                long busy = Drives.onDevice(conf, splits, probed);
                in.write('\n');
                in.flush();
                assertThat(line(io, out, "the peer's end")).isEqualTo("DONE");
                assertThat(peer.waitFor(60, TimeUnit.SECONDS)).as("peer exits").isTrue();
                assertThat(peer.exitValue()).isZero();

                assertThat(DriveQueue.ownNs("busy")).as("this JVM placed nothing").isZero();
                assertThat(seen.drive()).get().satisfies(q -> {
                    assertThat(q.instances()).isEqualTo(1);
                    assertThat(q.pagesRemaining()).isEqualTo(BUSY_PAGES);
                    assertThat(q.pageNs()).isEqualTo(pageNs);
                    assertThat(q.backlogNs()).isEqualTo(BUSY_PAGES * pageNs);
                });
                assertThat(seen.ns()).isEqualTo(BUSY_PAGES * pageNs);
                assertThat(busy).as("splits on the drive while another JVM's run is queued "
                        + "(%s), of %d; %d on the idle drive", seen, splits.size(), idle)
                        .isLessThan(idle);
                assertThat(DriveQueue.pendingNs("busy", dev)).as("the run gone").isZero();
                assertThat(Drives.onDevice(conf, splits, probed)).as("the run gone").isEqualTo(idle);
            } finally {
                io.shutdownNow();
                peer.destroyForcibly();
            }
        }
    }

    private static String line(ExecutorService io, BufferedReader r, String what)
            throws Exception {
        Future<String> f = io.submit(r::readLine);
        try {
            String l = f.get(120, TimeUnit.SECONDS);
            if (l == null) {
                throw new AssertionError("the other JVM ended before " + what);
            }
            return l;
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new AssertionError("no word from the other JVM in 120 s: " + what);
        }
    }

    private static Process startPeer(String uri) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-cp",
                System.getProperty("java.class.path")));
        for (String prop : new String[] {"smartssd.native.build", "smartssd.native.path"}) {
            String v = System.getProperty(prop);
            if (v != null) {
                cmd.add("-D" + prop + "=" + v);
            }
        }
        cmd.addAll(List.of(BusyDrivePeer.class.getName(), uri, "/data/busy.bin",
                Long.toString(BUSY_ACCESSES)));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
