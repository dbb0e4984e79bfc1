package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.GroupAggregate.Op;
import org.smartssd.scan.Placement;

/**
 * A device job in each placement on the LocalJobRunner: the drive's tasklet, a host mapper
 * ({@link RequestStatsHostMapper}) or both, one reduce. Each answer equals plain Java over the
 * records, and the counters say where the splits ran.
 */
class PlacedJobTest {
    static final int N = 30_000;
    static final long SPLIT = 48 * 1024;

    @TempDir
    static java.nio.file.Path dir;
    static Configuration conf;
    static Requests data;
    static Path input;

    @BeforeAll
    static void writeInput() throws Exception {
        conf = Drives.local(dir);
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", SPLIT);
        // the tasklet's group table is in DRAM: about 1 ms a page (26 DRAM accesses a record);
        // a host rate of 120 ns/B makes the host about as fast, so auto uses both sides
        // (configured: the plan must not depend on this machine's load)
        conf.setDouble(Placement.HOST_NS_PER_BYTE, 120);
        data = new Requests(N, 12, 99);
        input = new Path("smartssd://placetest/data/requests.bin");
        Drives.write(conf, input, data.bytes());
    }

    @ParameterizedTest
    @EnumSource(Placement.class)
    void everyPlacementEqualsJava(Placement placement) throws Exception {
        run(new Configuration(conf), placement);
    }

    @Test
    void unconfiguredHostRateIsMeasuredOverRealRecords() throws Exception {
        Configuration c = new Configuration(conf);
        c.unset(Placement.HOST_NS_PER_BYTE);
        DeviceJob job = run(c, Placement.AUTO);
        String cal = Placement.CALIBRATED + "placetest.";
        assertThat(job.getConfiguration().get(cal + "source"))
                .contains("host rate measured over");
        assertThat(job.getConfiguration().getDouble(cal + "host.ns-per-byte", 0)).isPositive();
    }

    @Test
    void deviceWithoutAHostVersionPlansTheDriveOnly() throws Exception {
        Configuration c = new Configuration(conf);
        c.unset(Placement.HOST_NS_PER_BYTE);
        DeviceJob job = DeviceJob.getInstance(c, "device, no host mapper");
        job.setDeviceMapper(GroupAggregate.groupBy(Requests.REGION).value(Requests.VALUE)
                .ops(Op.COUNT, Op.SUM, Op.MIN, Op.MAX).spec(Requests.LAYOUT, 64 * 1024, 0));
        job.setDeviceMapperFormat(AggregateFormat.class);
        job.setPlacement(Placement.DEVICE);
        job.setReducerClass(AggregateReducer.class);
        job.addInputPath(input);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        Path out = new Path(dir.resolve("out-" + UUID.randomUUID()).toUri());
        FileOutputFormat.setOutputPath(job, out);
        assertThat(job.waitForCompletion(false)).as("job: %s", job.failureReason()).isTrue();
        assertThat(Drives.readStats(job.getConfiguration(), out))
                .containsOnlyKeys(data.statsByRegion().keySet());
        Counters counters = job.getCounters();
        assertThat(counters.findCounter(PlacementCounters.SPLITS_ON_HOST).getValue()).isZero();
        assertThat(counters.findCounter(PlacementCounters.ESTIMATED_DEVICE_NS).getValue())
                .isPositive();
        assertThat(job.getConfiguration().get(Placement.CALIBRATED + "placetest.source"))
                .contains("no host mapper");
    }

    private DeviceJob run(Configuration jobConf, Placement placement) throws Exception {
        DeviceJob job = Drives.placedAggregateJob(jobConf,
                "placed " + placement + " " + UUID.randomUUID(), placement);
        job.addInputPath(input);
        Path out = new Path(dir.resolve("out-" + UUID.randomUUID()).toUri());
        FileOutputFormat.setOutputPath(job, out);
        assertThat(job.waitForCompletion(false)).as("job: %s", job.failureReason()).isTrue();

        Map<Long, long[]> expect = data.statsByRegion();
        Map<Long, long[]> got = Drives.readStats(job.getConfiguration(), out);
        assertThat(got.keySet()).isEqualTo(expect.keySet());
        expect.forEach((k, e) -> assertThat(got.get(k)).as("region %d", k).containsExactly(e));

        Counters c = job.getCounters();
        long splits = (N * (long) Requests.SIZE + SPLIT - 1) / SPLIT;
        long onDevice = c.findCounter(PlacementCounters.SPLITS_ON_DEVICE).getValue();
        long onHost = c.findCounter(PlacementCounters.SPLITS_ON_HOST).getValue();
        assertThat(onDevice + onHost).isEqualTo(splits);
        assertThat(c.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue()).isEqualTo(N);
        assertThat(c.findCounter(PlacementCounters.HOST_RECORDS).getValue()
                + c.findCounter(DeviceCounters.RECORDS_SCANNED).getValue()).isEqualTo(N);
        assertThat(c.findCounter(DeviceCounters.TASKLET_RUNS).getValue()).isEqualTo(onDevice);
        boolean configured = jobConf.get(Placement.HOST_NS_PER_BYTE) != null;
        switch (placement) {
            case DEVICE -> assertThat(onHost).isZero();
            case HOST -> assertThat(onDevice).isZero();
            case AUTO -> {
                // with a measured rate the split of the work depends on this machine
                if (configured) {
                    assertThat(onDevice).as("splits on the drive").isPositive();
                    assertThat(onHost).as("splits on the host").isPositive();
                }
            }
        }
        return job;
    }
}
