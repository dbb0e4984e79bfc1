package org.smartssd.fs.impl;

import java.util.HashMap;
import java.util.Map;

import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.impl.MetricsSystemImpl;

/**
 * A Hadoop metrics system (metrics2) of this project's own, as S3A keeps
 * {@code s3a-file-system}: started when its first source is registered, shut down when its
 * last is given back, so a process's {@code DefaultMetricsSystem} (a task's, a daemon's) is
 * left alone. Sinks are configured under its prefix in hadoop-metrics2.properties, and JMX
 * shows each source as {@code Hadoop:service=PREFIX,name=SOURCE}. A source registered under
 * a name already held is shared: each registration is a reference, and the source leaves
 * the system with the last.
 */
public final class SharedMetricsSystem {
    private static final Map<String, SharedMetricsSystem> SYSTEMS = new HashMap<>();

    private final String prefix;
    private final Map<String, Integer> references = new HashMap<>();
    private MetricsSystem system;

    private SharedMetricsSystem(String prefix) {
        this.prefix = prefix;
    }

    /** The system whose sinks are configured under {@code prefix}. */
    public static SharedMetricsSystem named(String prefix) {
        synchronized (SYSTEMS) {
            return SYSTEMS.computeIfAbsent(prefix, SharedMetricsSystem::new);
        }
    }

    /** A reference to a registered source; closing it gives the reference back, once. */
    public final class Registration implements AutoCloseable {
        private final String name;
        private boolean closed;

        private Registration(String name) {
            this.name = name;
        }

        /** The source's name in the metrics system (JMX's {@code name=}). */
        public String sourceName() {
            return name;
        }

        @Override
        public void close() {
            synchronized (SYSTEMS) {
                if (closed) {
                    return;
                }
                closed = true;
                int left = references.merge(name, -1, Integer::sum);
                if (left > 0) {
                    return;
                }
                references.remove(name);
                system.unregisterSource(name);
                if (references.isEmpty()) {
                    system.shutdown();
                    system = null;
                }
            }
        }
    }

    /**
     * Registers {@code source} under {@code name}, or takes one more reference on the source
     * already registered under it (then {@code source} is not used).
     */
    public Registration register(String name, String description, MetricsSource source) {
        synchronized (SYSTEMS) {
            if (system == null) {
                MetricsSystemImpl s = new MetricsSystemImpl(prefix);
                s.init(prefix);
                system = s;
            }
            if (!references.containsKey(name)) {
                system.register(name, description, source);
            }
            references.merge(name, 1, Integer::sum);
            return new Registration(name);
        }
    }

    /** The source registered under {@code name}, or null. */
    public MetricsSource source(String name) {
        synchronized (SYSTEMS) {
            return system == null ? null : system.getSource(name);
        }
    }
}
