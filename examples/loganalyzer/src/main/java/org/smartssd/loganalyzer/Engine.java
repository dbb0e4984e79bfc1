package org.smartssd.loganalyzer;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** What runs the queries: Hadoop MapReduce jobs (Kang's three clients), or Spark SQL. */
public enum Engine {
    /** host-normal, host-optimized and device MapReduce jobs. */
    MAPREDUCE,
    /** Spark SQL over the drive through the smartssd connector, without and with pushdown. */
    SPARK;

    /** mapreduce, spark. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The versions this engine runs, in table order. */
    public List<Mode> modes() {
        return Arrays.stream(Mode.values()).filter(m -> m.engine() == this).toList();
    }

    public static Engine ofCliName(String s) {
        for (Engine e : values()) {
            if (e.cliName().equals(s.toLowerCase(Locale.ROOT))) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown engine '" + s + "': use mapreduce or spark");
    }
}
