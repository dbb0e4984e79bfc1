package org.smartssd.loganalyzer;

import java.util.Locale;

/** The three clients of Kang's log analyzer ([Kang 2014, §6.5.3.1]). */
public enum Mode {
    /** A plain MapReduce job: one map output per record, Hadoop's sort and merge. */
    HOST_NORMAL,
    /** The mapper combines in memory and emits one output per group at the end. */
    HOST_OPTIMIZED,
    /** A device job: the group-aggregate tasklet in the drive, the reduce on the host. */
    DEVICE;

    /** host-normal, host-optimized, device. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public boolean onHost() {
        return this != DEVICE;
    }

    public static Mode ofCliName(String s) {
        for (Mode m : values()) {
            if (m.cliName().equals(s)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown mode '" + s
                + "': use host-normal, host-optimized or device");
    }
}
