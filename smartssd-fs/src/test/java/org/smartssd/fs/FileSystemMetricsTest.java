package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricType;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.impl.MetricsRecordImpl;
import org.junit.jupiter.api.Test;
import org.smartssd.device.ClientStatistics;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.impl.DriveStore;
import org.smartssd.fs.impl.FileSystemMetrics;

/**
 * smartssd:// in Hadoop's metrics system: an instance's source, found where an operator's
 * tools find it (JMX), gives a sink's collector the operations the test made and its
 * IOStatistics, and is gone once the instance is closed; the drive's source gives the
 * device's calls, errors, reconnects, bytes and tasklet runs. Values are read from the source
 * as a sink reads them: JMX caches them for the system's period.
 */
class FileSystemMetricsTest {
    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    private static Set<ObjectName> sources(String device) throws JMException {
        return JMX.queryNames(new ObjectName("Hadoop:service=" + FileSystemMetrics.METRICS_SYSTEM
                + ",name=" + FileSystemMetrics.RECORD + "-" + device + "-*"), null);
    }

    private static Map<String, Long> asMetrics(ClientStatistics s) {
        return Map.of("drive_calls", s.calls(), "drive_errors", s.errors(),
                "drive_reconnects", s.reconnects(), "drive_bytes_written", s.bytesToDrive(),
                "drive_bytes_read", s.bytesFromDrive(), "drive_tasklet_runs", s.taskletRuns());
    }

    /** The source's record as a sink collects it: its counters by name. */
    private static Map<String, Long> collect(ObjectName source, String device) {
        MetricsSource src = FileSystemMetrics.registered(source.getKeyProperty("name"));
        MetricsCollectorImpl collector = new MetricsCollectorImpl();
        Map<String, Long> counters = new HashMap<>();

        assertThat(src).isNotNull();
        src.getMetrics(collector, true);
        List<MetricsRecordImpl> records = collector.getRecords();
        assertThat(records).hasSize(1);
        MetricsRecordImpl r = records.get(0);
        assertThat(r.name()).isEqualTo(FileSystemMetrics.RECORD);
        assertThat(r.context()).isEqualTo(FileSystemMetrics.CONTEXT);
        assertThat(r.tags()).anySatisfy(t -> {
            assertThat(t.name()).isEqualTo("device");
            assertThat(t.value()).isEqualTo(device);
        });
        for (AbstractMetric m : r.metrics()) {
            assertThat(m.type()).isEqualTo(MetricType.COUNTER);
            counters.put(m.name(), m.value().longValue());
        }
        return counters;
    }

    @Test
    void anInstancesOperationsAreInItsSourceWhileItIsOpen() throws IOException, JMException {
        byte[] data = FsTestSupport.data(100_000, 38);
        int files = 3;
        ObjectName source;

        try (FileSystem fs = FsTestSupport.newFs("metrics2", FsTestSupport.embeddedConf())) {
            fs.mkdirs(new Path("/a/b"));
            fs.mkdirs(new Path("/c"));
            for (int i = 0; i < files; i++) {
                try (FSDataOutputStream out = fs.create(new Path("/a/b/f" + i), true)) {
                    out.write(data);
                }
            }
            try (FSDataInputStream in = fs.open(new Path("/a/b/f0"))) {
                assertThat(in.readAllBytes()).isEqualTo(data);
            }
            Set<ObjectName> found = sources("metrics2");
            assertThat(found).hasSize(1);
            source = found.iterator().next();
            assertThat(JMX.getAttribute(source, "tag.device")).isEqualTo("metrics2");
            Map<String, Long> c = collect(source, "metrics2");
            assertThat(c.get(StoreStatisticNames.OP_MKDIRS)).isEqualTo(2);
            assertThat(c.get(StoreStatisticNames.OP_CREATE)).isEqualTo(files);
            assertThat(c.get(StoreStatisticNames.OP_OPEN)).isEqualTo(1);
            assertThat(c.get(StoreStatisticNames.OP_DELETE)).isZero();
            // what the drive was sent: at least a write per file, the same as IOStatistics
            Map<String, Long> io = ((SmartSsdFileSystem) fs).getIOStatistics().counters();
            assertThat(io.get(DriveStore.COMMAND_PREFIX + "write"))
                    .isGreaterThanOrEqualTo(files);
            assertThat(c).isEqualTo(io);
        }
        assertThat(JMX.isRegistered(source)).isFalse();
        assertThat(sources("metrics2")).isEmpty();
    }

    @Test
    void theDriveIsASourceOfItsCallsErrorsBytesAndRuns() throws IOException, JMException {
        byte[] data = FsTestSupport.data(300_000, 7);
        ObjectName source;
        String uri;

        try (FileSystem fs = FsTestSupport.newFs("metricsD", FsTestSupport.embeddedConf())) {
            SmartSsdDevice device = ((SmartSsdFileSystem) fs).device();
            uri = device.uri();
            source = DriveSources.byUri().get(uri);
            assertThat(source).as("a source for %s", uri).isNotNull();
            Map<String, Long> before = DriveSources.collect(source);

            try (FSDataOutputStream out = fs.create(new Path("/m/f"), true)) {
                out.write(data);
            }
            try (FSDataInputStream in = fs.open(new Path("/m/f"))) {
                assertThat(in.readAllBytes()).isEqualTo(data);
            }
            Map<String, Long> mid = DriveSources.collect(source);
            assertThatThrownBy(() -> fs.getFileStatus(new Path("/m/missing")))
                    .isInstanceOf(FileNotFoundException.class);
            Map<String, Long> after = DriveSources.collect(source);

            assertThat(mid.get("drive_bytes_written") - before.get("drive_bytes_written"))
                    .isEqualTo(data.length);
            assertThat(mid.get("drive_bytes_read") - before.get("drive_bytes_read"))
                    .isGreaterThanOrEqualTo(data.length);
            assertThat(mid.get("drive_calls")).isGreaterThan(before.get("drive_calls"));
            assertThat(after.get("drive_errors") - mid.get("drive_errors")).isEqualTo(1);
            assertThat(after.get("drive_reconnects")).isZero();
            // a sink reads what the device counts, at the moment it asks
            assertThat(after).isEqualTo(asMetrics(device.statistics()));
            assertThat(JMX.getAttribute(source, "drive_errors")).isNotNull();
        }
        assertThat(JMX.isRegistered(source)).as("gone with the drive's last holder").isFalse();
        assertThat(DriveSources.byUri()).doesNotContainKey(uri);
    }

    @Test
    void twoInstancesHaveTwoSourcesAndTheLastCloseLeavesNone() throws IOException, JMException {
        FileSystem one = FsTestSupport.newFs("metricsA", FsTestSupport.embeddedConf());
        FileSystem two = FsTestSupport.newFs("metricsA", FsTestSupport.embeddedConf());

        try {
            one.mkdirs(new Path("/x"));
            assertThat(sources("metricsA")).hasSize(2);
        } finally {
            one.close();
        }
        assertThat(sources("metricsA")).hasSize(1);
        two.close();
        two.close();
        assertThat(sources("metricsA")).isEmpty();
        // and a new instance registers again with the metrics system stopped and restarted
        try (FileSystem three = FsTestSupport.newFs("metricsA", FsTestSupport.embeddedConf())) {
            three.mkdirs(new Path("/y"));
            Set<ObjectName> found = sources("metricsA");
            assertThat(found).hasSize(1);
            assertThat(collect(found.iterator().next(), "metricsA")
                    .get(StoreStatisticNames.OP_MKDIRS)).isEqualTo(1);
        }
    }
}
