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
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.SmartSsdFileSystem;

/**
 * Placement sees another JVM's work on the drive: two JVMs on one smartssd-devd. This JVM
 * plans a job's splits with {@code auto} on the idle drive; a second JVM
 * ({@link BusyDrivePeer}) starts a long tasklet run on the drive; this JVM plans the same job
 * again while that run goes on, and puts fewer splits on the drive: the drive's queue
 * (ISP_QUEUE) starts the drive's side, and this JVM placed nothing itself. With the run gone
 * the plan is the idle one again.
 *
 * <p>The daemon runs in realtime mode, where the drive's background work cannot run ahead of
 * the wall clock, so the other JVM's run (about 40 s of modelled ISP time) is still going
 * while this one plans; the peer checks that it was, after the plan, rather than assuming it.
 * The plan itself is from counted work and configured rates, not from timing.
 */
class OtherJvmQueueTest {
    static final int N = 30_000;
    static final long SPLIT = 48 * 1024;
    /** The other JVM's run: 4096 pages of 100000 DRAM loads, 9.5 ms of modelled ISP a page. */
    static final int BUSY_PAGES = 4096;
    static final long BUSY_ACCESSES = 100_000;

    @Test
    void anotherJvmsRunOnTheDriveMovesSplitsToTheHost(@TempDir Path dir) throws Exception {
        Path img = dir.resolve("busy.img");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 0);
        try (Devd devd = Devd.start(img, dir.resolve("busy.sock"), Duration.ofSeconds(60),
                "--time-mode", "realtime")) {
            Configuration conf = Drives.local(dir);
            conf.set("smartssd.device.busy.uri", devd.uri());
            conf.setLong("mapreduce.input.fileinputformat.split.maxsize", SPLIT);
            // configured, so the plan does not depend on this machine's load
            conf.setDouble(Placement.HOST_NS_PER_BYTE, 120);
            Requests data = new Requests(N, 12, 99);
            org.apache.hadoop.fs.Path input =
                    new org.apache.hadoop.fs.Path("smartssd://busy/data/requests.bin");
            Drives.write(conf, input, data.bytes());
            Drives.write(conf, new org.apache.hadoop.fs.Path("smartssd://busy/data/busy.bin"),
                    new byte[BUSY_PAGES * 8192]);
            SmartSsdDevice dev = ((SmartSsdFileSystem) FileSystem.get(
                    URI.create("smartssd://busy/"), conf)).device();

            assertThat(DriveQueue.pending("busy", dev).drive()).get()
                    .satisfies(q -> assertThat(q.instances()).isZero());
            long idle = onDevice(plan(conf, input, dir));
            assertThat(idle).as("splits on the idle drive").isPositive();

            Process peer = startPeer(devd.uri());
            ExecutorService io = Executors.newSingleThreadExecutor();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(
                    peer.getInputStream(), StandardCharsets.UTF_8));
                 OutputStream in = peer.getOutputStream()) {
                assertThat(line(io, out, "the peer's run to start")).isEqualTo(
                        "RUNNING " + BUSY_PAGES);
                DriveQueue.Pending seen = DriveQueue.pending("busy", dev);
                long busy = onDevice(plan(conf, input, dir));
                in.write('\n');
                in.flush();
                assertThat(line(io, out, "the peer's state")).as(
                        "the other JVM's run was still going when this one had planned "
                                + "(realtime drive; else the machine stalled for ~40 s)")
                        .isEqualTo("STILL true");
                assertThat(line(io, out, "the peer's end")).isEqualTo("DONE");
                assertThat(peer.waitFor(60, TimeUnit.SECONDS)).as("peer exits").isTrue();
                assertThat(peer.exitValue()).isZero();

                assertThat(DriveQueue.ownNs("busy")).as("this JVM placed nothing").isZero();
                assertThat(seen.drive()).get().satisfies(q -> {
                    assertThat(q.instances()).isEqualTo(1);
                    assertThat(q.pagesRemaining()).isPositive().isLessThanOrEqualTo(BUSY_PAGES);
                    assertThat(q.backlogNs()).isGreaterThan(q.pagesRemaining() * q.pageNs());
                });
                assertThat(seen.ns()).isEqualTo(seen.drive().get().backlogNs());
                assertThat(busy).as("splits on the drive while another JVM's run goes on (%s)",
                        seen).isLessThan(idle);
                assertThat(DriveQueue.pendingNs("busy", dev)).as("the run gone").isZero();
                assertThat(onDevice(plan(conf, input, dir))).as("the run gone").isEqualTo(idle);
            } finally {
                io.shutdownNow();
                peer.destroyForcibly();
            }
        }
    }

    private static List<InputSplit> plan(Configuration conf, org.apache.hadoop.fs.Path input,
                                         Path dir) throws Exception {
        DeviceJob job = Drives.placedAggregateJob(new Configuration(conf),
                "plan " + UUID.randomUUID(), Placement.AUTO);
        job.addInputPath(input);
        FileOutputFormat.setOutputPath(job,
                new org.apache.hadoop.fs.Path(dir.resolve("out-" + UUID.randomUUID()).toUri()));
        return new DeviceInputFormat().getSplits(job);
    }

    private static long onDevice(List<InputSplit> splits) {
        assertThat(splits).allMatch(s -> s instanceof PlacedSplit);
        return splits.stream().filter(s -> ((PlacedSplit) s).side() == Placement.DEVICE)
                .count();
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
