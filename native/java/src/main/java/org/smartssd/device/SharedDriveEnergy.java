package org.smartssd.device;

import java.io.IOException;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * Apportions a drive's modelled energy among the tasks that share it, so that no joule is
 * charged twice: measured task by task, overlapping tasks were each charged the drive's
 * whole energy over their span.
 *
 * <p>A <em>period</em> runs from the first task joining a drive that no task is using to the
 * last of its tasks leaving. The drive's energy over the period (its {@code energy_total}
 * counter at the last leave minus at the first join) is divided among the period's tasks in
 * proportion to each task's own counted work priced with the drive's profile
 * ({@link TaskWork#weightPj}): page reads, ISP core time from its instructions, DRAM accesses
 * and pages, and its output bytes over the link. Shares are whole nanojoules that add up
 * exactly to the period's energy: each is the floor of its exact proportional value, and the
 * nanojoules left over (fewer than the number of tasks) go one each to the largest remainders,
 * ties to the task that joined first. So every share is within 1 nJ of its exact value. When
 * no task counted any work, the tasks share equally.
 *
 * <p>The period's energy is all the drive spent in it: its idle power, other clients' commands
 * and background work (garbage collection) are charged to the period's tasks too, by the same
 * weights. A task's share is known only when its period ends: {@link Participant#leave} waits
 * (bounded) for the other tasks. Tasks share a period when they run in one JVM against the
 * same drive URI (a LocalJobRunner's or Spark local[N]'s concurrent tasks); tasks in other
 * processes are not seen, and their work is charged to this JVM's tasks.
 */
public final class SharedDriveEnergy {
    private static final ConcurrentHashMap<String, SharedDriveEnergy> DRIVES =
            new ConcurrentHashMap<>();

    private final String uri;
    private Period current;

    private SharedDriveEnergy(String uri) {
        this.uri = uri;
    }

    /** The ledger of the drive {@code device} is open on (one per drive URI in this JVM). */
    public static SharedDriveEnergy of(SmartSsdDevice device) {
        return DRIVES.computeIfAbsent(device.uri(), SharedDriveEnergy::new);
    }

    /**
     * One task's share of its period.
     *
     * @param taskNj         the task's energy, nJ
     * @param taskWeightPj   its counted work priced by the profile, pJ
     * @param periodNj       the drive's energy over the period, nJ (the sum of its shares)
     * @param periodWeightPj the priced work of every task of the period, pJ
     * @param tasks          the period's tasks
     * @param start          the drive's counters at the period's first join
     * @param end            the drive's counters at its last leave
     */
    public record Share(long taskNj, long taskWeightPj, long periodNj, long periodWeightPj,
                        int tasks, ModelCounters start, ModelCounters end) {
        /** The task's fraction of the period's energy. */
        public double fraction() {
            return periodNj == 0 ? 0 : (double) taskNj / periodNj;
        }
    }

    private final class Period {
        final ModelCounters start;
        final List<Participant> members = new ArrayList<>();
        int active;
        boolean closed;
        ModelCounters end;
        long[] sharesNj;
        long[] weightsPj;

        Period(ModelCounters start) {
            this.start = start;
        }

        void settle(ModelCounters endCounters) {
            end = endCounters;
            closed = true;
            if (start == null || end == null) {
                return;
            }
            weightsPj = members.stream().mapToLong(p -> p.work.weightPj(end.prices())).toArray();
            sharesNj = apportion(end.energyTotalNj() - start.energyTotalNj(), weightsPj);
        }
    }

    /** A task's membership of a period, from {@link #join} to {@link #leave}. */
    public final class Participant {
        private final Period period;
        private final int index;
        private TaskWork work = TaskWork.NONE;
        private boolean left;

        private Participant(Period period, int index) {
            this.period = period;
            this.index = index;
        }

        /**
         * Leaves the period with the task's counted work, and waits up to {@code maxWait} for
         * the period's other tasks to leave.
         *
         * @return the task's share; empty when the drive has no energy model
         * @throws IOException when the others did not leave in time (the task's work still
         *                     counts in the period), or reading the drive's counters failed
         */
        public Optional<Share> leave(SmartSsdDevice device, TaskWork taskWork, Duration maxWait)
                throws IOException {
            long deadline = System.nanoTime() + maxWait.toNanos();
            synchronized (SharedDriveEnergy.this) {
                depart(device, taskWork);
                while (!period.closed) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new IOException("waited " + maxWait + " for " + period.active
                                + " other task(s) on " + uri + " to finish, to apportion the"
                                + " drive's energy among them; this task's share is unknown");
                    }
                    try {
                        SharedDriveEnergy.this.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.io.InterruptedIOException("interrupted waiting for the"
                                + " other tasks on " + uri + " to apportion its energy");
                    }
                }
                if (period.sharesNj == null) {
                    return Optional.empty();
                }
                return Optional.of(new Share(period.sharesNj[index], period.weightsPj[index],
                        period.end.energyTotalNj() - period.start.energyTotalNj(),
                        sumExact(period.weightsPj), period.members.size(), period.start,
                        period.end));
            }
        }

        /** Leaves without work (a failed or cancelled task) and without waiting. Idempotent. */
        public void abandon(SmartSsdDevice device) {
            synchronized (SharedDriveEnergy.this) {
                if (!left) {
                    try {
                        depart(device, TaskWork.NONE);
                    } catch (IOException e) {
                        // the period still closes: its shares are then unknown
                    }
                }
            }
        }

        private void depart(SmartSsdDevice device, TaskWork taskWork) throws IOException {
            if (left) {
                throw new IllegalStateException("this task has already left its period");
            }
            left = true;
            work = taskWork;
            if (--period.active > 0) {
                return;
            }
            if (current == period) {
                current = null;
            }
            ModelCounters end = null;
            try {
                end = period.start == null ? null : device.modelCounters().orElse(null);
            } finally {
                period.settle(end);
                SharedDriveEnergy.this.notifyAll();
            }
        }
    }

    /**
     * Joins the drive's current period, or starts one (reading the drive's counters) when no
     * task is using the drive.
     */
    public synchronized Participant join(SmartSsdDevice device) throws IOException {
        if (current == null) {
            current = new Period(device.modelCounters().orElse(null));
        }
        Participant p = new Participant(current, current.members.size());
        current.members.add(p);
        current.active++;
        return p;
    }

    /**
     * Divides {@code totalNj} in proportion to {@code weights}: whole units that add up to
     * {@code totalNj} exactly, each within 1 of its exact value (largest remainders, ties to
     * the lower index); equal parts when every weight is 0.
     */
    public static long[] apportion(long totalNj, long[] weights) {
        if (totalNj < 0) {
            throw new IllegalArgumentException("energy to apportion is negative: " + totalNj);
        }
        int n = weights.length;
        long[] out = new long[n];
        if (n == 0) {
            return out;
        }
        long[] w = weights.clone();
        BigInteger sum = BigInteger.ZERO;
        for (long x : w) {
            if (x < 0) {
                throw new IllegalArgumentException("negative weight " + x);
            }
            sum = sum.add(BigInteger.valueOf(x));
        }
        if (sum.signum() == 0) {
            java.util.Arrays.fill(w, 1);
            sum = BigInteger.valueOf(n);
        }
        BigInteger total = BigInteger.valueOf(totalNj);
        BigInteger[] rem = new BigInteger[n];
        long given = 0;
        for (int i = 0; i < n; i++) {
            BigInteger[] qr = total.multiply(BigInteger.valueOf(w[i])).divideAndRemainder(sum);
            out[i] = qr[0].longValueExact();
            rem[i] = qr[1];
            given += out[i];
        }
        long leftOver = totalNj - given;
        int[] order = IntStream.range(0, n).boxed()
                .sorted(Comparator.<Integer, BigInteger>comparing(i -> rem[i]).reversed()
                        .thenComparing(i -> i))
                .mapToInt(Integer::intValue).toArray();
        for (int k = 0; k < leftOver; k++) {
            out[order[k]]++;
        }
        return out;
    }

    private static long sumExact(long[] v) {
        long s = 0;
        for (long x : v) {
            s = Math.addExact(s, x);
        }
        return s;
    }
}
