package org.smartssd.device;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * A task's share of the modelled energy of a drive that several tasks use at once, kept by
 * the drive itself (its energy ledger: {@code firmware-tasklets/emu/include/ss_emu_ledger.h}),
 * so tasks in different processes (YARN containers, Spark executors) on one
 * {@code smartssd-devd} drive share one account, as tasks in one JVM do.
 *
 * <p>A <em>period</em> runs from the first task joining a drive that no task is using to the
 * last of its tasks leaving. The drive's energy over the period is divided among the
 * period's tasks in proportion to each task's own counted work, which the drive reads from
 * the task's tasklet instance when it leaves (pages read, ISP instructions and DRAM
 * accesses, output bytes) and prices with its profile. Shares are whole nanojoules that add
 * up exactly to the period's energy, each within 1 nJ of its exact proportional value
 * (largest remainders, ties to the task that joined first); equal parts when no task counted
 * any work. The period's energy is all the drive spent in it: idle power, other clients'
 * commands and background work are charged to its tasks by the same weights.
 *
 * <p>A task's share is known only when its period ends: {@link Ticket#leave} waits (bounded)
 * for the period's other tasks, in any process. A ticket belongs to its connection: when a
 * process dies, its tasks leave with no work and its period goes on.
 */
public final class SharedDriveEnergy {
    private SharedDriveEnergy() {
    }

    /**
     * A task's share of its period, as the drive's ledger settled it: the fields of
     * {@code SS_REPLY_TASK_SHARE} in {@code protocol/include/ss_proto_replies.h}, in its order
     * ({@link WireDecoder}).
     *
     * @param taskNj         the task's energy, nJ
     * @param taskWeightPj   its counted work priced by the profile, pJ
     * @param periodNj       the drive's energy over the period, nJ (the sum of its shares)
     * @param periodWeightPj the priced work of every task of the period, pJ
     * @param tasks          the period's tasks
     * @param clients        the connections (processes) they came from
     * @param pages          the task's work as the drive read it from its instance: pages,
     * @param instructions   ISP instructions,
     * @param dramAccesses   DRAM accesses,
     * @param outputBytes    and output bytes
     */
    public record Share(long taskNj, long taskWeightPj, long periodNj, long periodWeightPj,
                        long tasks, long clients, long pages, long instructions,
                        long dramAccesses, long outputBytes, long startNandReadNj,
                        long startNandProgramNj, long startNandEraseNj, long startLinkNj,
                        long startIspNj, long startIdleNj, long endNandReadNj,
                        long endNandProgramNj, long endNandEraseNj, long endLinkNj,
                        long endIspNj, long endIdleNj) {
        /** The task's fraction of the period's energy. */
        public double fraction() {
            return periodNj == 0 ? 0 : (double) taskNj / periodNj;
        }
    }

    /**
     * Joins the drive's current period, or starts one, for tasklet instance {@code instance}
     * (0: a task with no work of its own); call it before the run is executed.
     *
     * @return the task's ticket; empty when the drive has no energy model (a real drive)
     */
    public static Optional<Ticket> join(SmartSsdDevice device, long instance)
            throws IOException {
        DeviceSession s = device.session();
        OptionalLong t = s.withHandle(h -> {
            long rc = SmartSsdNative.energyJoin0(h, instance);
            if (rc < 0 && Errors.errnoOf(rc) == Errno.ENOTSUP) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(s.check(rc, "energy join of tasklet instance",
                    Long.toUnsignedString(instance)));
        });
        return t.isPresent() ? Optional.of(new Ticket(s, t.getAsLong())) : Optional.empty();
    }

    /** A task's place in its period, from {@link #join} to {@link #leave}. */
    public static final class Ticket {
        private final DeviceSession s;
        private final long id;
        private boolean left;

        private Ticket(DeviceSession s, long id) {
            this.s = s;
            this.id = id;
        }

        public long id() {
            return id;
        }

        /**
         * Leaves the period with the task's counted work (the drive reads it from the
         * instance, which must not be destroyed yet), and waits up to {@code maxWait} for
         * the period's other tasks, in any process, to leave.
         *
         * @throws IOException when the others did not leave in time (this task's work still
         *                     counts in the period), or the drive refused
         */
        public Share leave(Duration maxWait) throws IOException {
            if (left) {
                throw new IllegalStateException("ticket " + id + " has already left its period");
            }
            left = true;
            leaveLedger(false);
            long deadline = System.nanoTime() + maxWait.toNanos();
            AdaptivePoller poller = new AdaptivePoller(PollPolicy.DEFAULT);
            for (;;) {
                Optional<Share> share = share();
                if (share.isPresent()) {
                    return share.get();
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new IOException("waited " + maxWait + " for the other tasks on "
                            + s.uri + " to finish, to apportion the drive's energy among"
                            + " them (ticket " + id + "); this task's share is unknown");
                }
                // no progress to go by: the poller backs off within the policy's bounds
                try {
                    TimeUnit.NANOSECONDS.sleep(Math.min(remaining,
                            poller.nextDelay(0, 0, System.nanoTime())));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted waiting for the other tasks"
                            + " on " + s.uri + " to apportion its energy");
                }
            }
        }

        /** Leaves with no work (a failed or cancelled task), without waiting. Idempotent;
         *  a failure is ignored: the drive drops the ticket when the connection closes. */
        public void abandon() {
            if (left) {
                return;
            }
            left = true;
            try {
                leaveLedger(true);
            } catch (IOException e) {
                // the connection is gone or going: the daemon abandons its tickets itself
            }
        }

        private void leaveLedger(boolean abandon) throws IOException {
            s.withHandle(h -> s.check(SmartSsdNative.energyLeave0(h, id, abandon),
                    abandon ? "energy abandon of ticket" : "energy leave of ticket", id));
        }

        /** The share; empty while tasks of the period run. Once returned, the drive forgets
         *  the ticket. */
        private Optional<Share> share() throws IOException {
            return s.withScratch((h, out) -> {
                long rc = SmartSsdNative.energyShare0(h, id, out);
                if (rc < 0 && Errors.errnoOf(rc) == Errno.EAGAIN) {
                    return Optional.empty();
                }
                s.check(rc, "energy share of ticket", id);
                return Optional.of(Replies.TASK_SHARE.decode(out));
            });
        }
    }
}
