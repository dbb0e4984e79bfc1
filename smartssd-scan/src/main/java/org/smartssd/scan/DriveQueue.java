package org.smartssd.scan;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.smartssd.device.IspQueue;
import org.smartssd.device.SmartSsdDevice;

/**
 * The device work queued on each drive, as the planner starts a drive's side with it.
 *
 * <p>The drive reports its own in-storage queue ({@link SmartSsdDevice#ispQueue()},
 * ISP_QUEUE): every run executing on it, whichever JVM, container or application started
 * it, with its estimate of the ISP time they still need, from their counted work. This JVM
 * also keeps its own account: a placed device run adds its split's device estimate when it
 * starts and takes it back when it ends ({@link #add}). The pending work is the larger of the
 * two: the drive's report covers other JVMs' runs and this JVM's runs under way; this JVM's
 * account covers its runs whose instance the drive has not started yet. A drive that does
 * not report its queue (it answers BAD_OPCODE, or cannot price its work) leaves this JVM's
 * account alone, which does not see other JVMs' runs.
 */
public final class DriveQueue {
    private static final Map<String, AtomicLong> PENDING_NS = new ConcurrentHashMap<>();

    private DriveQueue() {
    }

    /** A drive's pending work and where the figure comes from. */
    public record Pending(long ns, long ownNs, Optional<IspQueue> drive) {
        @Override
        public String toString() {
            return drive.map(q -> ns + " ns (drive: " + q.instances() + " runs, "
                    + q.pagesRemaining() + " pages, " + q.backlogNs() + " ns; this JVM: "
                    + ownNs + " ns)").orElse(ns + " ns (this JVM's runs only)");
        }
    }

    public static void add(String drive, long ns) {
        PENDING_NS.computeIfAbsent(drive, d -> new AtomicLong()).addAndGet(ns);
    }

    /** This JVM's own account of the device work it placed on {@code drive}. */
    public static long ownNs(String drive) {
        AtomicLong v = PENDING_NS.get(drive);
        return v == null ? 0 : Math.max(0, v.get());
    }

    /**
     * The work pending on {@code drive}, served by {@code device}: the drive's report where it
     * gives one, or this JVM's account where that is larger.
     */
    public static Pending pending(String drive, SmartSsdDevice device) throws IOException {
        long own = ownNs(drive);
        Optional<IspQueue> q = device.ispQueue().filter(IspQueue::hasBacklogEstimate);
        return new Pending(q.map(r -> Math.max(r.backlogNs(), own)).orElse(own), own, q);
    }

    public static long pendingNs(String drive, SmartSsdDevice device) throws IOException {
        return pending(drive, device).ns();
    }
}
