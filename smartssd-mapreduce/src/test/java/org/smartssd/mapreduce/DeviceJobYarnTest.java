package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.GroupAggregate.Op;
import org.smartssd.mapreduce.Requests.Request;

/**
 * A device job on a real YARN: MiniMRYarnCluster with two NodeManagers. Task JVMs are
 * separate processes, so the drive is served by smartssd-devd (a child process on a temp
 * image) and every process reaches it at {@code unix:SOCKET}.
 */
class DeviceJobYarnTest {
    static final int N = 20_000;
    static final int REGIONS = 6;

    @TempDir
    static java.nio.file.Path dir;
    static Devd devd;
    static MiniMRYarnCluster cluster;

    @BeforeAll
    static void startDriveAndCluster() throws Exception {
        java.nio.file.Path image = dir.resolve("yarn0.img");
        SmartSsdDevice.formatEmulated(image, null, 256L << 20, 0);
        devd = Devd.start(image, dir.resolve("yarn0.sock"), Duration.ofSeconds(30));

        Configuration conf = new Configuration();
        conf.set("smartssd.device.yarn0.uri", devd.uri());
        // small containers: the whole cluster shares 2 cores
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 256);
        conf.setInt("yarn.app.mapreduce.am.resource.mb", 512);
        String opens = System.getProperty("hadoop.jdk17.opens", "");
        conf.set("yarn.app.mapreduce.am.command-opts", "-Xmx384m " + opens);
        conf.setInt("mapreduce.map.memory.mb", 384);
        conf.set("mapreduce.map.java.opts", "-Xmx256m " + opens);
        conf.setInt("mapreduce.reduce.memory.mb", 384);
        conf.set("mapreduce.reduce.java.opts", "-Xmx256m " + opens);
        conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
        conf.set("yarn.app.mapreduce.am.staging-dir", dir.resolve("staging").toString());
        cluster = new MiniMRYarnCluster("smartssd-device-job", 2);
        cluster.init(conf);
        cluster.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.stop();
        }
        FileSystem.closeAll();
        if (devd != null) {
            devd.close();
        }
    }

    @Test
    void groupAggregateOnTwoNodeManagersEqualsJava() throws Exception {
        assertThat(cluster.getNodeManager(0)).isNotNull();
        assertThat(cluster.getNodeManager(1)).isNotNull();
        Configuration conf = new Configuration(cluster.getConfig());
        conf.set("smartssd.device.yarn0.uri", devd.uri());
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", 100_000);
        Requests data = new Requests(N, REGIONS, 7);
        Path input = new Path("smartssd://yarn0/data/requests.bin");
        Drives.write(conf, input, data.bytes());

        DeviceJob job = DeviceJob.getInstance(conf, "device job on yarn");
        job.setDeviceMapper(GroupAggregate.groupBy(Requests.REGION).value(Requests.VALUE)
                .ops(Op.COUNT, Op.SUM, Op.MAX).spec(Requests.LAYOUT, 64 * 1024, 0));
        job.setDeviceMapperFormat(AggregateFormat.class);
        job.setCombinerClass(AggregateReducer.class);
        job.setReducerClass(AggregateReducer.class);
        job.setNumReduceTasks(2);
        job.addInputPath(input);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        Path out = new Path(dir.resolve("out").toUri());
        FileOutputFormat.setOutputPath(job, out);
        boolean ok = job.waitForCompletion(true);
        assertThat(ok).as("job failed: %s", ok ? "" : job.failureReason()).isTrue();

        Map<Long, long[]> expect = new TreeMap<>();
        for (Request r : data.all()) {
            long[] e = expect.computeIfAbsent((long) r.region(),
                    k -> new long[] {0, 0, Long.MIN_VALUE});
            e[0]++;
            e[1] += r.value();
            e[2] = Math.max(e[2], r.value());
        }
        Map<Long, long[]> got = new TreeMap<>();
        for (Object[] kv : Drives.read(conf, out, LongPairWritable.class,
                AggregateWritable.class)) {
            AggregateWritable a = (AggregateWritable) kv[1];
            got.put(((LongPairWritable) kv[0]).first(), new long[] {a.count(), a.sum(), a.max()});
        }
        assertThat(got.keySet()).isEqualTo(expect.keySet());
        expect.forEach((k, e) -> assertThat(got.get(k)).as("region %d", k).containsExactly(e));

        Counters c = job.getCounters();
        // Map tasks, not attempts: speculative execution or a retry may launch more attempts
        // than there are splits, and only the successful attempts' counters are kept.
        long maps = job.getTaskReports(TaskType.MAP).length;
        assertThat(maps).isEqualTo(4); // 400 000 bytes in 100 000-byte splits
        assertThat(c.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue())
                .isGreaterThanOrEqualTo(maps);
        assertThat(c.findCounter(DeviceCounters.TASKLET_RUNS).getValue()).isEqualTo(maps);
        assertThat(c.findCounter(DeviceCounters.RECORDS_SCANNED).getValue()).isEqualTo(N);
        assertThat(c.findCounter(DeviceCounters.PAGES_SCANNED).getValue())
                .isGreaterThanOrEqualTo((N * 20L + 8191) / 8192);
        assertThat(c.findCounter(DeviceCounters.DEVICE_TIME_NS).getValue()).isPositive();
        assertThat(c.findCounter(DeviceCounters.HOST_ENERGY_UJ).getValue()).isPositive();
        // through smartssd-devd the model counters may be missing: then flagged, never faked
        long unavailable = c.findCounter(DeviceCounters.DEVICE_ENERGY_UNAVAILABLE).getValue();
        long deviceUj = c.findCounter(DeviceCounters.DEVICE_ENERGY_UJ).getValue();
        if (unavailable == maps) {
            assertThat(deviceUj).isZero();
        } else {
            assertThat(unavailable).isZero();
            assertThat(deviceUj).isPositive();
        }
        assertThat(Files.exists(dir.resolve("yarn0.sock"))).isTrue();
    }
}
