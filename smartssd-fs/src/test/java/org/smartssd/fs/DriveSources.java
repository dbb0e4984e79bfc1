package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricType;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.impl.MetricsRecordImpl;
import org.smartssd.fs.impl.DriveClientMetrics;
import org.smartssd.fs.impl.FileSystemMetrics;

/** The drives' metrics2 sources ({@link DriveClientMetrics}) as an operator finds them. */
final class DriveSources {
    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    private DriveSources() {
    }

    /** The drive sources registered now, by the drive's URI (JMX's {@code tag.drive}). */
    static Map<String, ObjectName> byUri() throws JMException {
        Map<String, ObjectName> byUri = new HashMap<>();
        for (ObjectName n : JMX.queryNames(new ObjectName("Hadoop:service="
                + FileSystemMetrics.METRICS_SYSTEM + ",name=" + DriveClientMetrics.RECORD
                + "-*"), null)) {
            byUri.put((String) JMX.getAttribute(n, "tag.drive"), n);
        }
        return byUri;
    }

    /** A drive source's record as a sink collects it: its counters by name. */
    static Map<String, Long> collect(ObjectName source) {
        MetricsSource src = FileSystemMetrics.registered(source.getKeyProperty("name"));
        MetricsCollectorImpl collector = new MetricsCollectorImpl();
        Map<String, Long> counters = new HashMap<>();

        assertThat(src).isNotNull();
        src.getMetrics(collector, true);
        MetricsRecordImpl r = collector.getRecords().get(0);
        assertThat(r.name()).isEqualTo(DriveClientMetrics.RECORD);
        for (AbstractMetric m : r.metrics()) {
            assertThat(m.type()).isEqualTo(MetricType.COUNTER);
            counters.put(m.name(), m.value().longValue());
        }
        return counters;
    }

    /** The record of the drive at {@code uri}, which must have a source. */
    static Map<String, Long> collect(String uri) throws JMException {
        ObjectName source = byUri().get(uri);
        assertThat(source).as("a metrics source for drive %s", uri).isNotNull();
        return collect(source);
    }
}
