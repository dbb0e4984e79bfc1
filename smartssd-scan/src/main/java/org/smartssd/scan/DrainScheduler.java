package org.smartssd.scan;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs splits on their drives and their nodes' hosts at once, both sides draining one queue
 * of splits while the job runs: where a split runs is decided from the modelled time that the
 * splits run so far took, not only from the estimates made before the job (which
 * {@link SplitPlanner#plan} uses alone). A drive whose splits cost more than its calibration
 * said (a filter that passes more records in the later part of a file, another job's runs)
 * gets fewer of the splits left, and the host more.
 *
 * <p>The work is handed out in rounds, as factoring hands out a parallel loop's iterations
 * [Hummel 1992]: each round plans the splits left with {@link SplitPlanner#drain} from the
 * modelled clocks each side has reached, each side's estimates scaled by how far its
 * splits so far ran over or under theirs, and runs about half of each side's planned work
 * (at least one split; one split in the first round); the sides run their round's splits at once, one after another on each
 * side (one ISP core per drive, one stream of reads per node, as the planner counts them).
 * Deterministic: the sides and the modelled times depend on the estimates and on the modelled
 * times of the splits run, never on which thread finished first, so a run repeats to the last
 * digit. Rounds cost wall clock only (a side that ends its round first waits for the others);
 * in modelled time each side goes on from its own clock.
 *
 * <p>A drive's queue ({@link DriveQueue}) is read once, before the first round, as the
 * drive's clock at the start. Reading it again between rounds would make the plan depend on
 * when other jobs' runs happened to start, so it would no longer repeat. The price: work that
 * other jobs put on the drive after the drain started is not seen (a split's modelled time
 * is its own run's counted work, not its wait behind other runs).
 */
public final class DrainScheduler {
    private DrainScheduler() {
    }

    /** Runs one split on one side and returns its modelled time in ns. Called from the
     *  drain's threads, one split at a time per side, several sides at once. */
    @FunctionalInterface
    public interface Runner {
        long run(int split, Placement side) throws IOException, InterruptedException;
    }

    /**
     * Where each split ran (in the given order), its modelled ns, each side's modelled clock
     * at the end (drives from their queue at the start, hosts from 0) and the rounds.
     */
    public record Outcome(List<Placement> sides, long[] modelledNs, Map<String, Long> deviceClock,
                          Map<String, Long> hostClock, int rounds) {
        /** When the last side finished, in modelled ns from the drain's start. */
        public long makespanNs() {
            long m = 0;
            for (long v : deviceClock.values()) {
                m = Math.max(m, v);
            }
            for (long v : hostClock.values()) {
                m = Math.max(m, v);
            }
            return m;
        }
    }

    /**
     * Drains {@code splits}. Each drive's side starts at its queue ({@code driveQueueNs}, as
     * the planner's). A split of length 0 runs on its drive, which runs nothing for it.
     */
    public static Outcome run(List<SplitPlanner.Estimate> splits, Map<String, Long> driveQueueNs,
                              Runner runner) throws IOException, InterruptedException {
        int n = splits.size();
        List<Placement> sides = new ArrayList<>();
        long[] modelled = new long[n];
        List<Integer> left = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            sides.add(Placement.DEVICE);
            left.add(i);
        }
        left.sort(Comparator.comparingLong((Integer i) -> -splits.get(i).length()));
        Map<String, Long> deviceClock = new LinkedHashMap<>();
        Map<String, Long> hostClock = new LinkedHashMap<>();
        for (SplitPlanner.Estimate e : splits) {
            deviceClock.putIfAbsent(e.drive(), driveQueueNs.getOrDefault(e.drive(), 0L));
            hostClock.putIfAbsent(e.node(), 0L);
        }
        // estimated and modelled ns of the splits run so far, by side ("d:" drive, "h:" node)
        Map<String, long[]> ran = new HashMap<>();
        int rounds = 0;
        ExecutorService pool = Executors.newCachedThreadPool(daemonThreads());
        try {
            while (!left.isEmpty()) {
                rounds++;
                Map<String, List<Integer>> round = nextRound(splits, left, deviceClock, hostClock,
                        ran, rounds == 1);
                List<Future<long[]>> running = new ArrayList<>();
                List<String> workers = new ArrayList<>(round.keySet());
                for (String w : workers) {
                    List<Integer> mine = round.get(w);
                    Placement side = w.startsWith("d:") ? Placement.DEVICE : Placement.HOST;
                    running.add(pool.submit(() -> {
                        long[] ns = new long[mine.size()];
                        for (int k = 0; k < mine.size(); k++) {
                            ns[k] = runner.run(mine.get(k), side);
                        }
                        return ns;
                    }));
                }
                for (int w = 0; w < workers.size(); w++) {
                    long[] ns = await(running, w, workers.get(w));
                    List<Integer> mine = round.get(workers.get(w));
                    Placement side = workers.get(w).startsWith("d:") ? Placement.DEVICE
                            : Placement.HOST;
                    for (int k = 0; k < mine.size(); k++) {
                        int i = mine.get(k);
                        SplitPlanner.Estimate e = splits.get(i);
                        sides.set(i, side);
                        modelled[i] = ns[k];
                        long[] sum = ran.computeIfAbsent(workers.get(w), x -> new long[2]);
                        sum[0] += side == Placement.DEVICE ? e.deviceNs() : e.hostNs();
                        sum[1] += ns[k];
                        if (side == Placement.DEVICE) {
                            deviceClock.merge(e.drive(), ns[k], Long::sum);
                        } else {
                            hostClock.merge(e.node(), ns[k], Long::sum);
                        }
                    }
                    left.removeAll(mine);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return new Outcome(sides, modelled, deviceClock, hostClock, rounds);
    }

    /**
     * The next round's splits by side ("d:DRIVE" or "h:NODE"): the splits left planned from
     * the clocks with each side's estimates scaled by its record so far, then of each side's
     * planned splits (largest first) the first ones up to half of its planned work, at least
     * one; in the first round ({@code probe}) one split per side, so that a side whose
     * estimates are far off has not taken half the work before its first split shows it.
     * When no more splits are left than sides with work, all of them.
     */
    static Map<String, List<Integer>> nextRound(List<SplitPlanner.Estimate> splits,
                                                List<Integer> left,
                                                Map<String, Long> deviceClock,
                                                Map<String, Long> hostClock,
                                                Map<String, long[]> ran, boolean probe) {
        List<SplitPlanner.Estimate> scaled = new ArrayList<>();
        for (int i : left) {
            SplitPlanner.Estimate e = splits.get(i);
            scaled.add(new SplitPlanner.Estimate(e.drive(), e.node(),
                    scale(e.deviceNs(), ran.get("d:" + e.drive())),
                    scale(e.hostNs(), ran.get("h:" + e.node())), e.length()));
        }
        List<Placement> plan = SplitPlanner.drain(scaled, new HashMap<>(deviceClock),
                new HashMap<>(hostClock));
        Map<String, List<Integer>> planned = new LinkedHashMap<>();
        Map<String, Long> work = new HashMap<>();
        for (int k = 0; k < left.size(); k++) {   // left is largest first: so are the lists
            SplitPlanner.Estimate e = scaled.get(k);
            boolean device = plan.get(k) == Placement.DEVICE || splits.get(left.get(k))
                    .length() == 0;
            String w = device ? "d:" + e.drive() : "h:" + e.node();
            planned.computeIfAbsent(w, x -> new ArrayList<>()).add(left.get(k));
            work.merge(w, device ? e.deviceNs() : e.hostNs(), Long::sum);
        }
        if (left.size() <= planned.size()) {
            return planned;
        }
        Map<Integer, SplitPlanner.Estimate> byIndex = new HashMap<>();
        for (int k = 0; k < left.size(); k++) {
            byIndex.put(left.get(k), scaled.get(k));
        }
        Map<String, List<Integer>> round = new LinkedHashMap<>();
        planned.forEach((w, mine) -> {
            List<Integer> take = new ArrayList<>();
            long half = probe ? 0 : work.get(w) / 2;
            long sum = 0;
            for (int i : mine) {
                if (!take.isEmpty() && sum >= half) {
                    break;
                }
                take.add(i);
                SplitPlanner.Estimate e = byIndex.get(i);
                sum += w.startsWith("d:") ? e.deviceNs() : e.hostNs();
            }
            round.put(w, take);
        });
        return round;
    }

    /**
     * Items grouped by their node (the first of {@code hosts}, "" for none), in order of first
     * appearance: what one drain runs (a device job's NodeDrainSplit, the Spark
     * connector's drained partition).
     */
    public static <T> Map<String, List<T>> byNode(List<T> items,
                                                 java.util.function.Function<T, String[]> hosts) {
        Map<String, List<T>> out = new LinkedHashMap<>();
        for (T t : items) {
            String[] h = hosts.apply(t);
            out.computeIfAbsent(h.length > 0 ? h[0] : "", k -> new ArrayList<>()).add(t);
        }
        return out;
    }

    /** An estimate scaled by the modelled over estimated time of the side's splits so far. */
    private static long scale(long estimateNs, long[] ran) {
        if (ran == null || ran[0] <= 0) {
            return estimateNs;
        }
        return Math.round(estimateNs * ((double) ran[1] / ran[0]));
    }

    private static long[] await(List<Future<long[]>> running, int w, String worker)
            throws IOException, InterruptedException {
        try {
            return running.get(w).get();
        } catch (ExecutionException e) {
            running.forEach(f -> f.cancel(true));
            Throwable c = e.getCause();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof InterruptedException ie) {
                throw (InterruptedIOException) new InterruptedIOException(
                        "split drain: " + worker + " interrupted").initCause(ie);
            }
            if (c instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException("split drain: " + worker + " failed: " + c, c);
        } catch (InterruptedException e) {
            running.forEach(f -> f.cancel(true));
            throw e;
        }
    }

    private static java.util.concurrent.ThreadFactory daemonThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "smartssd-split-drain-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
