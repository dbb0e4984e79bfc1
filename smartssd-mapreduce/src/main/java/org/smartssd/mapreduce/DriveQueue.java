package org.smartssd.mapreduce;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The estimated device work queued on each drive by this JVM's placed device runs: a run
 * adds its split's device estimate when it starts and takes it back when it ends. The planner
 * starts a drive's side of the queue with it. The drive does not report its own queue, so
 * runs started by other JVMs (other YARN containers, other applications) are not seen.
 */
public final class DriveQueue {
    private static final Map<String, AtomicLong> PENDING_NS = new ConcurrentHashMap<>();

    private DriveQueue() {
    }

    public static void add(String drive, long ns) {
        PENDING_NS.computeIfAbsent(drive, d -> new AtomicLong()).addAndGet(ns);
    }

    public static long pendingNs(String drive) {
        AtomicLong v = PENDING_NS.get(drive);
        return v == null ? 0 : Math.max(0, v.get());
    }
}
