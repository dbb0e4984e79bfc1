package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.LocalJobRunner;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.smartssd.scan.Placement;

/**
 * A device map placed off its drive's node fails at once, naming the node and the drive
 * ({@link MapNode}), on the LocalJobRunner with the check on ({@code always}: the runner has
 * no nodes, so its node is this host). Nothing is faked but the drive's host: another host
 * than this one, which is what the splits' locations name. The same job with the drive on
 * this host gives the answer computed in Java.
 */
class OffNodeMapTest {
    @TempDir
    java.nio.file.Path dir;

    private Job job(Configuration conf, String name, Path input) throws Exception {
        DeviceJob job = Drives.placedAggregateJob(new Configuration(conf), name, Placement.DEVICE);
        job.getConfiguration().set(MapNode.CHECK, "always");
        job.addInputPath(input);
        FileOutputFormat.setOutputPath(job, new Path(dir.resolve("out-" + name).toUri()));
        return job;
    }

    @Test
    void aMapOffItsDrivesNodeFailsNamingTheNodeAndTheDrive() throws Exception {
        String here = InetAddress.getLocalHost().getHostName();
        Configuration conf = Drives.local(dir);
        Requests data = new Requests(5_000, 6, 3);
        Path input = new Path("smartssd://offnode/data/requests.bin");
        conf.set("smartssd.device.offnode.host", "drive-node.invalid");
        Drives.write(conf, input, data.bytes());

        Job away = job(conf, "away", input);
        List<org.apache.hadoop.mapreduce.InputSplit> splits = new DeviceInputFormat()
                .getSplits(away);
        assertThat(splits).isNotEmpty().allSatisfy(s ->
                assertThat(s.getLocations()).containsExactly("drive-node.invalid"));
        // the LocalJobRunner logs a failed map's exception, and keeps no diagnostics
        LogCapturer log = LogCapturer.captureLogs(LoggerFactory.getLogger(LocalJobRunner.class));
        try {
            assertThat(away.waitForCompletion(false)).isFalse();
            // the LocalJobRunner's job thread sets the job FAILED and only then logs the map's
            // exception: wait for that line, at most a minute (the assertions below say what
            // was logged if it never came)
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (!log.getOutput().contains("YARN-1902") && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        } finally {
            log.stopCapturing();
        }
        assertThat(log.getOutput()).contains("runs on node " + here)
                .contains("its drive 'offnode' is on drive-node.invalid")
                .contains("YARN-1902");

        // the map reads the drive's host from the job's configuration (a split's locations
        // do not reach the task)
        conf.set("smartssd.device.offnode.host", here);
        Job home = job(conf, "home", input);
        assertThat(home.waitForCompletion(false)).isTrue();
        Map<Long, long[]> got = Drives.readStats(home.getConfiguration(),
                FileOutputFormat.getOutputPath(home));
        Map<Long, long[]> expect = data.statsByRegion();
        assertThat(got.keySet()).isEqualTo(expect.keySet());
        expect.forEach((k, e) -> assertThat(got.get(k)).as("region %d", k).containsExactly(e));
    }

    @Test
    void theCheckIsOffOnTheLocalRunnerUnlessAskedAndInAContainerUsesItsNode() throws Exception {
        Configuration conf = new Configuration(false);
        conf.set("smartssd.device.d0.host", "node-a");
        List<FileSplit> splits = List.of(new FileSplit(new Path("smartssd://d0/f"), 0, 10,
                new String[0]));
        MapNode.require(conf, splits, Map.of());   // auto, no container: not checked
        MapNode.require(conf, splits, Map.of(MapNode.NM_HOST, "NODE-A"));
        assertThatThrownBy(() -> MapNode.require(conf, splits, Map.of(MapNode.NM_HOST,
                "node-b"))).hasMessageContaining("runs on node node-b")
                .hasMessageContaining("its drive 'd0' is on node-a");
        conf.set(MapNode.CHECK, "never");
        MapNode.require(conf, splits, Map.of(MapNode.NM_HOST, "node-b"));
        conf.set(MapNode.CHECK, "sometimes");
        assertThatThrownBy(() -> MapNode.require(conf, splits, Map.of()))
                .hasMessageContaining("must be auto, always or never, got 'sometimes'");
    }
}
