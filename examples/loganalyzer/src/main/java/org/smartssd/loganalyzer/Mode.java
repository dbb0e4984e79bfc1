package org.smartssd.loganalyzer;

import java.util.Locale;

/**
 * The versions of a query: Kang's three clients ([Kang 2014, §6.5.3.1]) as MapReduce jobs,
 * and Spark SQL over the drive without and with pushdown.
 */
public enum Mode {
    /** A plain MapReduce job: one map output per record, Hadoop's sort and merge. */
    HOST_NORMAL(Engine.MAPREDUCE, true),
    /** The mapper combines in memory and emits one output per group at the end. */
    HOST_OPTIMIZED(Engine.MAPREDUCE, true),
    /** A device job: the group-aggregate tasklet in the drive, the reduce on the host. */
    DEVICE(Engine.MAPREDUCE, false),
    /**
     * Spark SQL, every pushdown off: all records cross the link and Spark aggregates them
     * (partial aggregation per partition, as host-optimized combines per split).
     */
    SPARK_NO_PUSHDOWN(Engine.SPARK, true),
    /** Spark SQL with pushdown: the group-aggregate tasklet per partition, Spark merges. */
    SPARK_PUSHDOWN(Engine.SPARK, false);

    private final Engine engine;
    private final boolean onHost;

    Mode(Engine engine, boolean onHost) {
        this.engine = engine;
        this.onHost = onHost;
    }

    public Engine engine() {
        return engine;
    }

    /** host-normal, host-optimized, device, spark-no-pushdown, spark-pushdown. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether the records cross the link and the host computes the query. */
    public boolean onHost() {
        return onHost;
    }

    /** The version others are compared against in a table: the host's best. */
    public static Mode baseline(Engine e) {
        return e == Engine.SPARK ? SPARK_NO_PUSHDOWN : HOST_OPTIMIZED;
    }

    /**
     * A version by its name; under the Spark engine also {@code pushdown} and
     * {@code no-pushdown}.
     */
    public static Mode ofCliName(String s, Engine engine) {
        String n = s.toLowerCase(Locale.ROOT);
        for (Mode m : engine.modes()) {
            if (m.cliName().equals(n) || m.cliName().equals(engine.cliName() + "-" + n)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown mode '" + s + "' for engine "
                + engine.cliName() + ": use " + String.join(", ", engine.modes().stream()
                        .map(Mode::cliName).toList()));
    }

    public static Mode ofCliName(String s) {
        return ofCliName(s, Engine.MAPREDUCE);
    }
}
