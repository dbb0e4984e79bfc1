package org.smartssd.fs.impl;

import java.io.Closeable;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * One {@code smartssd://} instance in Hadoop's metrics system (metrics2): a source named
 * {@code SmartSsdFileSystem-DEVICE-N} whose record carries the instance's IOStatistics
 * counters (its operations, {@code op_*}, and the drive commands they sent,
 * {@code drive_command_*}), tagged with the device. It is registered while the instance is
 * open, so sinks configured for {@value #METRICS_SYSTEM} in hadoop-metrics2.properties and
 * JMX ({@code Hadoop:service=smartssd-file-system,name=SmartSsdFileSystem-...}) see it.
 *
 * <p>The metrics system is this module's own ({@link SharedMetricsSystem}), as S3A's is, and
 * lives while an instance or a drive ({@link DriveClientMetrics}) is open.
 */
public final class FileSystemMetrics implements MetricsSource, Closeable {
    /** The metrics system's name: the prefix of its sinks' configuration, JMX's service. */
    public static final String METRICS_SYSTEM = "smartssd-file-system";
    /** The record's name, and the prefix of each source's. */
    public static final String RECORD = "SmartSsdFileSystem";
    /** The context records are in. */
    public static final String CONTEXT = "smartssd";
    private static final MetricsInfo DEVICE =
            Interns.info("device", "the smartssd:// device name (smartssd://DEVICE/)");

    private static final AtomicLong NEXT = new AtomicLong();

    private final String name;
    private final String device;
    private final IOStatistics statistics;
    private SharedMetricsSystem.Registration registration;

    private FileSystemMetrics(String device, IOStatistics statistics) {
        this.name = RECORD + "-" + device + "-" + NEXT.incrementAndGet();
        this.device = device;
        this.statistics = statistics;
    }

    /** Registers an instance's counters; {@link #close()} takes them out again. */
    public static FileSystemMetrics register(String device, IOStatistics statistics) {
        FileSystemMetrics m = new FileSystemMetrics(device, statistics);
        m.registration = SharedMetricsSystem.named(METRICS_SYSTEM).register(m.name,
                "smartssd://" + device + "/ (one FileSystem instance)", m);
        return m;
    }

    /** The source registered under {@code sourceName} (JMX's {@code name=}), or null. */
    public static MetricsSource registered(String sourceName) {
        return SharedMetricsSystem.named(METRICS_SYSTEM).source(sourceName);
    }

    /** The source's name in the metrics system (and JMX's {@code name=}). */
    public String sourceName() {
        return name;
    }

    @Override
    public void getMetrics(MetricsCollector collector, boolean all) {
        MetricsRecordBuilder record = collector.addRecord(RECORD).setContext(CONTEXT)
                .tag(DEVICE, device);
        for (Map.Entry<String, Long> c : new TreeMap<>(statistics.counters()).entrySet()) {
            record.addCounter(Interns.info(c.getKey(), "IOStatistics counter " + c.getKey()),
                    c.getValue());
        }
    }

    /** Unregisters the source; the last one open stops the metrics system. Idempotent. */
    @Override
    public void close() {
        registration.close();
    }
}
