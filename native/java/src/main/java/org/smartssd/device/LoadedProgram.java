package org.smartssd.device;

import java.time.Instant;

/**
 * An eBPF tasklet program the drive keeps (TASKLET_LIST): its name, its length in
 * instructions, and when it was loaded (host time).
 */
public record LoadedProgram(String name, int instructions, Instant loadedAt) {
}
