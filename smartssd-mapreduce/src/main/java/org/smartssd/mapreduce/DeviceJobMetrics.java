package org.smartssd.mapreduce;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;
import org.smartssd.fs.impl.FileSystemMetrics;
import org.smartssd.fs.impl.SharedMetricsSystem;

/**
 * Device jobs' work in this process, in Hadoop's metrics system (metrics2, and so JMX): the
 * source {@value #SOURCE} of the metrics system {@value #METRICS_SYSTEM}, whose record holds,
 * summed over every map task that ran here, each job counter a map adds
 * ({@link DeviceCounters}, {@link PlacementCounters}, {@link CacheScanCounters}) under its
 * name in lower case: {@code tasklet_runs} (the scans pushed into the drive),
 * {@code splits_on_device} and {@code splits_on_host}, {@code device_time_ns} and
 * {@code modelled_host_ns} (modelled time), {@code device_energy_nj} and
 * {@code host_energy_uj}, and the rest. The job's counters say what one job did; this says
 * what a process (a NodeManager's task JVM, a LocalJobRunner) has done, for a sink that
 * scrapes it while it runs. The source is registered by the first map task and stays for
 * the process's life.
 */
public final class DeviceJobMetrics implements MetricsSource {
    /** The metrics system's name: the prefix of its sinks' configuration, JMX's service. */
    public static final String METRICS_SYSTEM = "smartssd-device-jobs";
    /** The source's and its record's name. */
    public static final String SOURCE = "SmartSsdDeviceJobs";

    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();
    private static final Object LOCK = new Object();
    private static SharedMetricsSystem.Registration registration;

    private DeviceJobMetrics() {
    }

    /** Adds {@code v} to the task's job counter and to this process's metric of the name. */
    static void increment(TaskAttemptContext task, Enum<?> counter, long v) {
        if (v == 0) {
            return;
        }
        task.getCounter(counter).increment(v);
        register();
        COUNTS.computeIfAbsent(metricName(counter), k -> new AtomicLong()).addAndGet(v);
    }

    /** The metric's name for a job counter: its name in lower case. */
    static String metricName(Enum<?> counter) {
        return counter.name().toLowerCase(Locale.ROOT);
    }

    private static void register() {
        synchronized (LOCK) {
            if (registration == null) {
                registration = SharedMetricsSystem.named(METRICS_SYSTEM).register(SOURCE,
                        "device jobs' map tasks in this process", new DeviceJobMetrics());
            }
        }
    }

    @Override
    public void getMetrics(MetricsCollector collector, boolean all) {
        MetricsRecordBuilder record = collector.addRecord(SOURCE)
                .setContext(FileSystemMetrics.CONTEXT);
        for (Map.Entry<String, AtomicLong> c : new TreeMap<>(COUNTS).entrySet()) {
            record.addCounter(Interns.info(c.getKey(), "device jobs' " + c.getKey()
                    + ", summed over this process's map tasks"), c.getValue().get());
        }
    }
}
