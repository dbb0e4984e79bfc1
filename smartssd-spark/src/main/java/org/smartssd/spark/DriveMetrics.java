package org.smartssd.spark;

import java.util.Locale;

import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * The scan's metrics in the SQL tab: bytes the drive scanned for its tasklets, bytes over
 * the host link, modelled device time and modelled device energy. Device time and energy
 * come from the drive's model (an emulated drive's counted operations), never from host
 * clocks; concurrent tasks on one drive each count the drive's energy over their run.
 */
final class DriveMetrics {
    static final String SCANNED = "driveBytesScanned";
    static final String LINK = "linkBytes";
    static final String TIME = "deviceTimeNs";
    static final String ENERGY = "deviceEnergyNj";

    private DriveMetrics() {
    }

    static CustomMetric[] all() {
        return new CustomMetric[] {new Scanned(), new Link(), new Time(), new Energy()};
    }

    static CustomTaskMetric value(String name, long v) {
        return new CustomTaskMetric() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public long value() {
                return v;
            }
        };
    }

    public static final class Scanned extends CustomSumMetric {
        @Override
        public String name() {
            return SCANNED;
        }

        @Override
        public String description() {
            return "bytes of records the drive's tasklets examined";
        }
    }

    public static final class Link extends CustomSumMetric {
        @Override
        public String name() {
            return LINK;
        }

        @Override
        public String description() {
            return "bytes over the host link";
        }
    }

    public static final class Time extends CustomMetric0 {
        @Override
        public String name() {
            return TIME;
        }

        @Override
        public String description() {
            return "modelled device time (s)";
        }

        @Override
        public String aggregateTaskMetrics(long[] values) {
            return String.format(Locale.ROOT, "%.6f", sum(values) / 1e9);
        }
    }

    public static final class Energy extends CustomMetric0 {
        @Override
        public String name() {
            return ENERGY;
        }

        @Override
        public String description() {
            return "modelled device energy (J)";
        }

        @Override
        public String aggregateTaskMetrics(long[] values) {
            return String.format(Locale.ROOT, "%.6f", sum(values) / 1e9);
        }
    }

    abstract static class CustomMetric0 implements CustomMetric {
        static long sum(long[] values) {
            long s = 0;
            for (long v : values) {
                s += v;
            }
            return s;
        }
    }
}
