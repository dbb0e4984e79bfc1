package org.smartssd.scan;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.smartssd.device.EnergyAccountant;
import org.smartssd.device.EnergyReport;
import org.smartssd.device.InputRange;
import org.smartssd.device.SharedDriveEnergy;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletSpec;
import org.smartssd.fs.DriveLog;

/**
 * One tasklet run over one byte range of one object, the way Kang Fig. 6.5 drives it:
 * {@code create_object} (output object, then tasklet instance), {@code execute_object}, polls
 * of {@code read_object} until done, then the output. Polling is the drive client's own
 * adaptive polling ({@link SmartSsdDevice#await}) on a helper thread; {@link #next} hands each
 * report to the caller (the map task's record reader), so task progress follows the drive's
 * page counts.
 *
 * <p>Cost: 1 command for the drive's page size, 2 to create, 1 to execute, 1 per poll, 1 per MiB of output, 2 to clean
 * up (destroy the instance, remove the output object).
 */
public final class TaskletRun implements Closeable {

    /** What the poller thread reports after the last progress: the end or the failure. */
    private record End(TaskletProgress last, IOException failure) {
    }

    private final SmartSsdDevice device;
    private final TaskletSpec spec;
    private final String outputPath;
    private final long instance;
    private final int pageSize;
    private final EnergyAccountant.Measurement energy;
    private final SharedDriveEnergy.Ticket sharing;
    private final Duration timeout;
    private final LinkedBlockingQueue<Object> reports = new LinkedBlockingQueue<>();
    private final Thread poller;
    private TaskletProgress last;
    private long polls;
    private boolean finished;
    private byte[] output;
    private EnergyReport report;
    private SharedDriveEnergy.Share share;
    private boolean closed;

    private TaskletRun(SmartSsdDevice device, TaskletSpec spec, String outputPath, long instance,
                       int pageSize, EnergyAccountant.Measurement energy,
                       SharedDriveEnergy.Ticket sharing, Duration timeout) {
        this.device = device;
        this.pageSize = pageSize;
        this.spec = spec;
        this.outputPath = outputPath;
        this.instance = instance;
        this.energy = energy;
        this.sharing = sharing;
        this.timeout = timeout;
        this.poller = new Thread(() -> poll(timeout), "smartssd-tasklet-" + instance);
        poller.setDaemon(true);
    }

    /**
     * Creates the output object at {@code outputPath} (parents included) and the instance,
     * and starts the run over {@code range}. On failure nothing is left on the drive.
     *
     * @param accountant measures the run's energy from before execute to the output read;
     *                   null to skip (the drive is then not asked for model counters). The
     *                   device energy is the run's share of the drive's energy over the
     *                   runs that overlap it on the same drive, from any process
     *                   ({@link SharedDriveEnergy})
     */
    public static TaskletRun start(SmartSsdDevice device, TaskletSpec spec, InputRange range,
                                   String outputPath, Duration timeout,
                                   EnergyAccountant accountant) throws IOException {
        return start(device, spec, List.of(range), outputPath, timeout, accountant);
    }

    /** As {@link #start(SmartSsdDevice, TaskletSpec, InputRange, String, Duration,
     * EnergyAccountant)}, over several ranges of input, in object order. */
    public static TaskletRun start(SmartSsdDevice device, TaskletSpec spec,
                                   List<InputRange> ranges, String outputPath, Duration timeout,
                                   EnergyAccountant accountant) throws IOException {
        int pageSize = device.info().pageSize();
        long out = device.createOutput(outputPath, SmartSsdDevice.CreateOption.EXCLUSIVE,
                SmartSsdDevice.CreateOption.PARENTS);
        long instance;
        try {
            instance = device.createTasklet(spec, out);
        } catch (IOException | RuntimeException e) {
            removeQuietly(device, outputPath, e);
            throw e;
        }
        EnergyAccountant.Measurement m = null;
        SharedDriveEnergy.Ticket sharing = null;
        try {
            sharing = accountant == null ? null : join(device, instance);
            m = begin(device, accountant);
            device.execute(instance, ranges);
        } catch (IOException | RuntimeException e) {
            if (sharing != null) {
                sharing.abandon();
            }
            destroyQuietly(device, instance, e);
            removeQuietly(device, outputPath, e);
            throw e;
        }
        TaskletRun run = new TaskletRun(device, spec, outputPath, instance, pageSize, m,
                sharing, timeout);
        run.poller.start();
        return run;
    }

    private static EnergyAccountant.Measurement begin(SmartSsdDevice device,
                                                      EnergyAccountant accountant) {
        if (accountant == null) {
            return null;
        }
        try {
            return accountant.begin();
        } catch (IOException e) {
            log(device).warn("energy accounting unavailable for this tasklet run: {}",
                    e.toString());
            return null;
        }
    }

    /** This class's messages about {@code device}, naming it. */
    private static DriveLog log(SmartSsdDevice device) {
        return DriveLog.of(TaskletRun.class, device.uri());
    }

    private static SharedDriveEnergy.Ticket join(SmartSsdDevice device, long instance) {
        try {
            return SharedDriveEnergy.join(device, instance).orElse(null);
        } catch (IOException e) {
            log(device).warn("the drive's energy cannot be shared out for this tasklet run: {}",
                    e.toString());
            return null;
        }
    }

    private void poll(Duration timeout) {
        try {
            TaskletProgress done = device.await(instance, timeout, reports::add);
            reports.add(new End(done, null));
        } catch (IOException e) {
            reports.add(new End(null, e));
        } catch (RuntimeException e) {
            reports.add(new End(null, new IOException(e.toString(), e)));
        }
    }

    /**
     * The newest progress report, waiting up to {@code maxWait} for one; null when none came
     * in that time. After the drive reports DONE the output is read, and the final report
     * (state DONE) is returned once; then null for ever, with {@link #finished()} true.
     *
     * @throws IOException the drive's failure of the run (its reason in the message), or a
     *                     failure to read the output
     */
    public TaskletProgress next(Duration maxWait) throws IOException {
        if (finished) {
            return null;
        }
        Object r;
        try {
            r = reports.poll(maxWait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for tasklet " + instance);
        }
        if (r == null) {
            return null;
        }
        // several reports may be queued: only the newest progress matters, never skip the end
        Object n;
        while (!(r instanceof End) && (n = reports.poll()) != null) {
            polls++;
            r = n;
        }
        if (r instanceof End end) {
            if (end.failure() != null) {
                finished = true;
                abandonShare();
                throw end.failure();
            }
            last = end.last();
            try {
                output = device.readAllOutput(instance);
            } catch (IOException | RuntimeException e) {
                abandonShare();
                throw e;
            }
            report = end(device, energy);
            shareEnergy();
            finished = true;
            return last;
        }
        polls++;
        last = (TaskletProgress) r;
        return last;
    }

    /**
     * Follows the run to its end, waiting up to {@code maxWait} at a time: this run, finished
     * and its output read. On a failure the run is closed (nothing left on the drive).
     */
    public TaskletRun toEnd(Duration maxWait) throws IOException {
        try {
            while (!finished) {
                next(maxWait);
            }
            return this;
        } catch (IOException | RuntimeException e) {
            try {
                close();
            } catch (IOException c) {
                e.addSuppressed(c);
            }
            throw e;
        }
    }

    private static EnergyReport end(SmartSsdDevice device, EnergyAccountant.Measurement m) {
        if (m == null) {
            return null;
        }
        try {
            return m.end();
        } catch (IOException e) {
            log(device).warn("energy accounting unavailable for this tasklet run: {}",
                    e.toString());
            return null;
        }
    }

    /** Leaves the drive's period with this run's work, and takes its share of the energy. */
    private void shareEnergy() {
        if (sharing == null) {
            return;
        }
        try {
            share = sharing.leave(timeout);
            if (report != null) {
                report = report.withDeviceShare(share);
            }
        } catch (IOException e) {
            log(device).warn("this tasklet run's share of the drive's energy is unknown: {}",
                    e.toString());
            report = null;
        }
    }

    private void abandonShare() {
        if (sharing != null) {
            sharing.abandon();
        }
    }

    public TaskletSpec spec() {
        return spec;
    }

    public long instance() {
        return instance;
    }

    /** The drive's flash page size, bytes. */
    public int pageSize() {
        return pageSize;
    }

    /** The newest progress report seen, or null before the first. */
    public TaskletProgress last() {
        return last;
    }

    /** Progress polls seen so far. */
    public long polls() {
        return polls;
    }

    /** True once the run is done and its output read (or it failed). */
    public boolean finished() {
        return finished;
    }

    /** Pages done over pages total of the newest report, 0..1. */
    public float fraction() {
        if (finished) {
            return 1f;
        }
        if (last == null || last.pagesTotal() <= 0) {
            return 0f;
        }
        return Math.min(1f, (float) last.pagesDone() / last.pagesTotal());
    }

    /** The whole output, trailer included; null until finished. */
    public byte[] output() {
        return output;
    }

    /** Energy of the run; null without an accountant or when accounting failed. Its device
     *  energy is the run's share of the drive's ({@link #energyShare()}). */
    public EnergyReport energy() {
        return report;
    }

    /** The run's share of the drive's energy; null until finished, without an accountant,
     *  or when the drive has no energy model. */
    public SharedDriveEnergy.Share energyShare() {
        return share;
    }

    /** Stops polling, destroys the instance and removes the output object. Idempotent. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        abandonShare();
        poller.interrupt();
        try {
            poller.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        IOException first = null;
        try {
            device.destroy(instance);
        } catch (IOException e) {
            first = e;
        }
        try {
            device.remove(outputPath, false);
        } catch (IOException e) {
            if (first == null) {
                first = e;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static void destroyQuietly(SmartSsdDevice device, long instance, Exception cause) {
        try {
            device.destroy(instance);
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    private static void removeQuietly(SmartSsdDevice device, String path, Exception cause) {
        try {
            device.remove(path, false);
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }
}
