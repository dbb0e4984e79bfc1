package org.smartssd.spark;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.smartssd.device.InputRange;
import org.smartssd.device.TaskletFailedException;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.tasklet.Trailer;
import org.smartssd.fs.sscache.CachedFile;
import org.smartssd.scan.HostTasklets;
import org.smartssd.scan.ScanEngine;
import org.smartssd.scan.ScanPart;
import org.smartssd.scan.TaskletRun;

/**
 * A Spark partition as the engine of a scan ({@link ScanEngine}): the drive runs the scan
 * plan's tasklet, the host its host version ({@code HostTasklet}, whose output is the
 * drive's byte for byte: Spark has been told the operations are pushed); each part's
 * outputs are kept, in part order and the drive's before the host's, for
 * {@link OutputRows}. Each part's file is checked against the length it had when the query
 * was planned ({@link DriveTarget}).
 */
final class PartitionEngine implements ScanEngine {
    static final String SCRATCH = "/.smartssd-spark";
    private static final Duration WAIT = Duration.ofSeconds(1);
    private static final Duration TIMEOUT = Duration.ofHours(1);
    /** Linux's EOVERFLOW: a checked sum left its range. */
    private static final int EOVERFLOW = 75;

    private final ScanPlan plan;
    private final List<SmartSsdPartition> parts;
    /** Each part's outputs, as the drive writes them. */
    private final List<List<byte[]>> outputs = new ArrayList<>();

    PartitionEngine(ScanPlan plan, List<SmartSsdPartition> parts) {
        this.plan = plan;
        this.parts = List.copyOf(parts);
        for (int i = 0; i < parts.size(); i++) {
            outputs.add(new ArrayList<>());
        }
    }

    /** The outputs of the sides that ran, by part, the drive's first. */
    synchronized List<byte[]> outputs() {
        List<byte[]> all = new ArrayList<>();
        outputs.forEach(all::addAll);
        return all;
    }

    private synchronized void keep(ScanPart part, byte[] output) {
        outputs.get(part.index()).add(output);
    }

    private synchronized List<byte[]> kept(ScanPart part) {
        return new ArrayList<>(outputs.get(part.index()));
    }

    @Override
    public TaskletRun runOnDevice(ScanPart part) throws IOException {
        SmartSsdPartition p = parts.get(part.index());
        DriveTarget t = DriveTarget.of(plan, p);
        String out = SCRATCH + "/" + UUID.randomUUID() + ".out";
        InputRange range = new InputRange(t.stat().oid(), p.start(), p.length());
        try {
            return TaskletRun.start(t.device(), plan.spec(), range, out, TIMEOUT,
                    t.accountant()).toEnd(WAIT);
        } catch (IOException e) {
            if (e instanceof TaskletFailedException f && Math.abs(f.status().errno()) == EOVERFLOW
                    && plan.aggregate() != null && plan.aggregate().checkedSum()) {
                // Spark's ANSI SUM of a LONG fails there too
                throw new ArithmeticException("[ARITHMETIC_OVERFLOW] long overflow: the drive's "
                        + "SUM over " + describe(p) + " left the range of a LONG "
                        + "(spark.sql.ansi.enabled is true; try_sum returns NULL instead)");
            }
            throw new IOException(plan.taskletName() + " run over " + describe(p) + " failed: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void deviceOutput(ScanPart part, byte[] output, TaskletProgress done) {
        keep(part, output);
    }

    /** The host version over the range's records, read through smartssd://. */
    @Override
    public HostRead runOnHost(ScanPart part) throws IOException {
        SmartSsdPartition p = parts.get(part.index());
        DriveTarget t = DriveTarget.of(plan, p);
        HostTasklets.Output o;
        try {
            o = HostTasklets.run(plan.spec(), t.fs(), t.path(), p.fileLength(),
                    List.of(new long[] {p.start(), p.length()}));
        } catch (IOException e) {
            throw new IOException("host " + plan.taskletName() + " over " + describe(p)
                    + " failed: " + e.getMessage(), e);
        }
        keep(part, o.output());
        return new HostRead(o.bytes(), o.records());
    }

    /**
     * The host version over the records the drive did not do of a part of an
     * {@code sscache://} file, read through the cache. A pushed LIMIT is the partition's, not
     * each side's: the host is given what the drive's matches left of it, and reads no record
     * when they reached it.
     */
    @Override
    public HostRead runOnHost(ScanPart part, List<long[]> recordIntervals) throws IOException {
        SmartSsdPartition p = parts.get(part.index());
        long limitLeft = limitLeft(kept(part));
        if (limitLeft == 0) {
            return new HostRead(0, 0);
        }
        DriveTarget t = DriveTarget.of(plan, p);
        int rec = plan.layout().recordSize();
        List<long[]> bytes = new ArrayList<>();
        long records = 0;
        for (long[] iv : recordIntervals) {
            bytes.add(new long[] {iv[0] * rec, (iv[1] - iv[0]) * rec});
            records += iv[1] - iv[0];
        }
        HostTasklets.Output o;
        try {
            o = HostTasklets.run(limitLeft > 0 ? plan.spec(limitLeft) : plan.spec(), t.fs(),
                    t.path(), p.fileLength(), bytes);
        } catch (IOException e) {
            throw new IOException("host " + plan.taskletName() + " over the uncached records of "
                    + describe(p) + " failed: " + e.getMessage(), e);
        }
        keep(part, o.output());
        return new HostRead(o.bytes(), records);
    }

    /** The limit less the drive's matches (0: nothing left); -1 without a limit. */
    private long limitLeft(List<byte[]> driveOutputs) throws TaskletFailedException {
        if (plan.mode() != ScanPlan.Mode.FILTER || plan.limit() < 0) {
            return -1;
        }
        long matches = 0;
        for (byte[] o : driveOutputs) {
            matches += Trailer.of(o, plan.mode().tasklet).aux();
        }
        return Math.max(0, plan.limit() - matches);
    }

    @Override
    public CachedFile cachedFile(ScanPart part) throws IOException {
        return DriveTarget.of(plan, parts.get(part.index())).cached();
    }

    @Override
    public String cachedScanOutput(ScanPart part) {
        return SCRATCH + "/cached-" + UUID.randomUUID() + ".out";
    }

    private static String describe(SmartSsdPartition p) {
        return p.path() + " [" + p.start() + ", " + (p.start() + p.length()) + ")";
    }
}
