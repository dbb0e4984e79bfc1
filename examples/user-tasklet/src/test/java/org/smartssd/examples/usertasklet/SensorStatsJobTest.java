package org.smartssd.examples.usertasklet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.examples.usertasklet.SensorReadings.Reading;
import org.smartssd.mapreduce.DeviceCounters;
import org.smartssd.mapreduce.DeviceJob;
import org.smartssd.scan.DeviceAccess;

/**
 * The user's tasklet, compiled by clang during this build, loaded on an embedded emulated
 * drive and run by {@link SensorStatsJob} on the LocalJobRunner over several splits; the
 * answer is worked out in plain Java from the bytes read back from the drive.
 */
class SensorStatsJobTest {
    static final int N = 40_000;
    static final int SENSORS = 37;
    static final long FROM = 20_000;
    static final long TO = 70_000;

    @TempDir
    java.nio.file.Path dir;

    private Configuration conf() {
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.setInt("mapreduce.client.completion.pollinterval", 20);
        conf.setBoolean("smartssd.device.embedded.allowed", true);
        conf.set("smartssd.device.embedded.dir", dir.resolve("drives").toString());
        conf.set("mapreduce.cluster.local.dir", dir.resolve("mr-local").toString());
        conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
        conf.set("mapreduce.jobtracker.staging.root.dir", dir.resolve("staging").toString());
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", 128 * 1024);
        return conf;
    }

    /** Plain Java over the records: per sensor over those that count, and the bad checks. */
    private static SensorStatsJob.Result expected(byte[] bytes) {
        Map<Long, SensorStats> sensors = new TreeMap<>();
        long corrupt = 0;
        for (Reading r : SensorReadings.decode(bytes)) {
            if (!r.intact()) {
                corrupt++;
            } else if (r.counts(FROM, TO)) {
                sensors.merge(r.sensor(), SensorStats.empty(r.sensor()).plus(r.temperature()),
                        (a, b) -> a.plus(r.temperature()));
            }
        }
        return new SensorStatsJob.Result(sensors, corrupt);
    }

    @Test
    void theDrivesAnswerEqualsPlainJavaOverTheSameBytes() throws Exception {
        Configuration conf = conf();
        Path input = new Path("smartssd://sensors/log/readings.bin");
        List<Reading> readings = SensorReadings.generate(N, SENSORS, 100_000, 97, 11);
        FileSystem fs = input.getFileSystem(conf);
        try (OutputStream out = fs.create(input)) {
            out.write(SensorReadings.encode(readings));
        }
        byte[] stored;
        try (InputStream in = fs.open(input); ByteArrayOutputStream b = new ByteArrayOutputStream()) {
            in.transferTo(b);
            stored = b.toByteArray();
        }
        SensorStatsJob.Result expect = expected(stored);
        // the data has every case the program decides on
        assertThat(expect.corrupt()).isGreaterThan(100);
        assertThat(readings).anyMatch(r -> r.intact() && (r.flags() & SensorReadings.FAULT) != 0)
                .anyMatch(r -> r.intact() && r.flags() == 0)
                .anyMatch(r -> r.intact() && r.flags() == 1 && r.time() < FROM)
                .anyMatch(r -> r.intact() && r.flags() == 1 && r.time() >= TO);
        assertThat(expect.sensors()).hasSize(SENSORS);

        SmartSsdDevice drive = DeviceAccess.of(input, conf).device();
        assertThat(SensorStatsJob.load(drive)).isPositive();
        Path out = new Path(dir.resolve("out").toUri());
        DeviceJob job = SensorStatsJob.job(conf, input, out, FROM, TO);
        assertThat(job.waitForCompletion(false)).as(job.failureReason()).isTrue();

        SensorStatsJob.Result got = SensorStatsJob.read(conf, out);
        assertThat(got.corrupt()).isEqualTo(expect.corrupt());
        assertThat(got.sensors()).isEqualTo(expect.sensors());
        assertThat(job.getCounters().findCounter(DeviceCounters.RECORDS_SCANNED).getValue())
                .isEqualTo(N);
        assertThat(job.getCounters().findCounter(DeviceCounters.TASKLET_RUNS).getValue())
                .isGreaterThan(3);
    }

    @Test
    void theToolLoadsTheProgramAndRunsTheJob() throws Exception {
        Configuration conf = conf();
        Path input = new Path("smartssd://sensors2/log/readings.bin");
        try (OutputStream out = input.getFileSystem(conf).create(input)) {
            out.write(SensorReadings.encode(SensorReadings.generate(5000, 5, 1000, 50, 3)));
        }
        Path out = new Path(dir.resolve("tool-out").toUri());
        int rc = org.apache.hadoop.util.ToolRunner.run(conf, new SensorStatsJob(),
                new String[] {input.toString(), out.toString(), "0", "500"});
        assertThat(rc).isZero();
        assertThat(DeviceAccess.of(input, conf).device().listPrograms())
                .anyMatch(p -> p.name().equals(SensorStatsJob.PROGRAM));
        assertThat(SensorStatsJob.read(conf, out).sensors()).hasSize(5);
    }
}
