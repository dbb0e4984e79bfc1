package org.smartssd.fs.impl;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.smartssd.device.ClientStatistics;
import org.smartssd.device.SmartSsdDevice;

/**
 * One drive this process has open ({@link DriveRegistry}: shared by every {@code smartssd://}
 * and {@code sscache://} instance on it, and by the device jobs and Spark scans that reach it
 * through them) in the metrics system {@value FileSystemMetrics#METRICS_SYSTEM}: a source
 * named {@code SmartSsdDrive-N}, tagged with the drive's URI, whose record is the device's
 * {@link ClientStatistics}: calls, errors, reconnects, bytes each way and tasklet runs (scans
 * pushed into the drive). Registered while the drive is open; read when a sink or JMX asks,
 * so nothing is counted twice or late.
 */
public final class DriveClientMetrics implements MetricsSource, AutoCloseable {
    /** The record's name, and the prefix of each source's. */
    public static final String RECORD = "SmartSsdDrive";
    private static final MetricsInfo DRIVE = Interns.info("drive", "the drive's URI");
    private static final MetricsInfo CALLS =
            Interns.info("drive_calls", "calls into the drive (commands)");
    private static final MetricsInfo ERRORS =
            Interns.info("drive_errors", "calls into the drive that failed");
    private static final MetricsInfo RECONNECTS = Interns.info("drive_reconnects",
            "sessions opened again after the link closed or the daemon restarted");
    private static final MetricsInfo BYTES_TO = Interns.info("drive_bytes_written",
            "payload bytes written to the drive (objects, cache blocks)");
    private static final MetricsInfo BYTES_FROM = Interns.info("drive_bytes_read",
            "payload bytes read from the drive (objects, tasklet output, cache hits)");
    private static final MetricsInfo TASKLET_RUNS =
            Interns.info("drive_tasklet_runs", "tasklet runs started in the drive (pushed scans)");
    private static final AtomicLong NEXT = new AtomicLong();

    private final String uri;
    private final SmartSsdDevice device;
    private final SharedMetricsSystem.Registration registration;

    private DriveClientMetrics(String uri, SmartSsdDevice device) {
        this.uri = uri;
        this.device = device;
        this.registration = SharedMetricsSystem.named(FileSystemMetrics.METRICS_SYSTEM)
                .register(RECORD + "-" + NEXT.incrementAndGet(), "drive " + uri, this);
    }

    /** Registers the drive's statistics; {@link #close()} takes them out again. */
    public static DriveClientMetrics register(String uri, SmartSsdDevice device) {
        return new DriveClientMetrics(uri, device);
    }

    /** The source's name in the metrics system (JMX's {@code name=}). */
    public String sourceName() {
        return registration.sourceName();
    }

    @Override
    public void getMetrics(MetricsCollector collector, boolean all) {
        ClientStatistics s;
        try {
            s = device.statistics();
        } catch (IOException closing) {
            return;   // closed under the scrape: the source is on its way out
        }
        collector.addRecord(RECORD).setContext(FileSystemMetrics.CONTEXT).tag(DRIVE, uri)
                .addCounter(CALLS, s.calls())
                .addCounter(ERRORS, s.errors())
                .addCounter(RECONNECTS, s.reconnects())
                .addCounter(BYTES_TO, s.bytesToDrive())
                .addCounter(BYTES_FROM, s.bytesFromDrive())
                .addCounter(TASKLET_RUNS, s.taskletRuns());
    }

    /** Unregisters the source. Idempotent. */
    @Override
    public void close() {
        registration.close();
    }
}
