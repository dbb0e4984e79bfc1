package org.smartssd.scan;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.smartssd.device.InputRange;
import org.smartssd.device.ModelCounters;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletSpec;
import org.smartssd.fs.DriveLog;

/**
 * What the planner knows of one drive and of the host, per split:
 * <ul>
 *   <li>the device version's time per page and per run: the tasklet runs over the first
 *       {@value #PROBE_PAGES} and twice as many pages of the drive's first split, and its
 *       counted work (instructions and DRAM accesses, [Kang 2014, §6.5.2.2, Fig. 6.6]) is
 *       priced with the drive's profile (firmware overhead per page, ns per DRAM access and
 *       per instruction, from its model counters); the two runs' difference is the cost per
 *       page, the rest the cost per run. A drive without model counters gives its own clock
 *       for the runs;</li>
 *   <li>the link's time per byte: {@value Placement#LINK_NS_PER_BYTE}, else the drive's
 *       model (link busy time over link bytes while the host reads {@value #HOST_SAMPLE_BYTES}
 *       bytes of the split), else SATA 3 Gb/s;</li>
 *   <li>the host's CPU time per byte and per record of the host version (the job's host
 *       mapper, or any {@link HostOperator}: the Spark connector's host tasklets):
 *       {@value Placement#HOST_NS_PER_BYTE} and {@value Placement#HOST_NS_PER_RECORD} when
 *       configured (deterministic: benchmarks and tests set them), else measured once per JVM
 *       and host version by running it over those real records in memory, the least
 *       thread CPU time of {@value #HOST_ROUNDS} rounds. That measures the operator, not
 *       Hadoop's stream: configure the rate where the I/O path matters.</li>
 * </ul>
 *
 * @param source how each figure was obtained, for the log and the job configuration
 */
public record PlacementCalibration(int pageSize, int recordSize, double fwPageNs,
                                   double instrNs, double dramNs, double deviceNsPerPage,
                                   double deviceNsPerRun, double linkNsPerByte,
                                   double hostNsPerByte, double hostNsPerRecord, String source)
        implements java.io.Serializable {
    /**
     * The host version of the operator, run over a sample of a split's raw bytes (whole
     * records from the split's first record; TEXT: from the split's start) to measure the
     * host's rate. {@link #name()} keys the once-per-JVM measurement.
     */
    public interface HostOperator {
        String name();

        void run(byte[] sample) throws IOException, InterruptedException;
    }

    static final int PROBE_PAGES = 16;
    static final int HOST_SAMPLE_BYTES = 1 << 20;
    static final int HOST_ROUNDS = 3;
    /** 8192 B over SATA 3 Gb/s, 300e6 B/s after 8b/10b ([Kang 2014, §6.5.1]). */
    static final double SATA3_NS_PER_BYTE = 1e9 / 300e6;

    private static final Map<String, double[]> MEASURED_HOST = new ConcurrentHashMap<>();
    private static final AtomicLong PROBE_RUNS = new AtomicLong();
    private static final int CALIBRATIONS_KEPT = 256;
    /** Calibrations probed in this JVM, by {@link #cacheKey}; the least recent dropped. */
    private static final Map<String, PlacementCalibration> CALIBRATED =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, PlacementCalibration> e) {
                    return size() > CALIBRATIONS_KEPT;
                }
            };

    /** Probe runs (tasklet runs on a drive to calibrate it) this JVM has made. */
    public static long probeRuns() {
        return PROBE_RUNS.get();
    }

    /** The device version's estimate for a split: its pages at the probed cost per page,
     *  plus the probed cost per run. */
    public long deviceNs(ScanRange s) {
        long pages = (s.length() + pageSize - 1) / pageSize;
        return Math.round(deviceNsPerRun + pages * deviceNsPerPage);
    }

    /** The host version's estimate: the split over the link, then the host's rate. */
    public long hostNs(ScanRange s) {
        return hostNs(s.length(), s.length() / recordSize);
    }

    public long hostNs(long bytes, long records) {
        if (hostNsPerByte == 0 && hostNsPerRecord == 0) {
            return 0;
        }
        return Math.round(bytes * (linkNsPerByte + hostNsPerByte) + records * hostNsPerRecord);
    }

    /** The modelled ISP time of a finished run, by the same prices, plus its output. */
    public long deviceModelNs(TaskletProgress p, long outputBytes) {
        double isp = fwPageNs > 0 ? p.pagesDone() * fwPageNs + p.instructions() * instrNs
                + p.dramAccesses() * dramNs : Math.max(0, p.finishedNs() - p.startedNs());
        return Math.round(isp + outputBytes * linkNsPerByte);
    }

    /**
     * The calibration of the drive of {@code first} (a non-empty split) for this tasklet,
     * with the rate of {@code host} (null: no host version, the host is not estimated):
     * probed once per JVM, then reused while the drive, the file (its object, size and
     * modification time), the split's start, the tasklet and its parameters, the host
     * version and the configured rates are the same. What a probe measures (the tasklet's
     * counted work over those pages, the profile's prices, the link's model) does not change
     * between two queries over unchanged data, and the probes are most of a plan's cost.
     */
    public static PlacementCalibration probe(Configuration conf, TaskletSpec spec,
                                             ScanRange first, HostOperator host)
            throws IOException {
        long t0 = System.nanoTime();
        DeviceAccess acc = DeviceAccess.of(first.path(), conf);
        String key = cacheKey(conf, spec, first, acc, host);
        PlacementCalibration cached;
        synchronized (CALIBRATED) {
            cached = CALIBRATED.get(key);
        }
        String drive = first.path().toUri().getAuthority();
        if (cached != null) {
            DriveLog.of(PlacementCalibration.class, drive).info("drive {} ({}): calibration for "
                    + "tasklet {} reused from this JVM, no probe runs ({} ms)", drive,
                    acc.device().uri(), spec.taskletId(), ms(System.nanoTime() - t0));
            return cached;
        }
        PlacementCalibration c = measure(conf, spec, first, host, acc, t0);
        synchronized (CALIBRATED) {
            CALIBRATED.put(key, c);
        }
        return c;
    }

    /** What a calibration depends on: the drive, the file's version, the probe's start,
     *  the tasklet, the host version and the configured rates. */
    private static String cacheKey(Configuration conf, TaskletSpec spec, ScanRange first,
                                   DeviceAccess acc, HostOperator host) throws IOException {
        return String.join("|", acc.device().uri(), acc.device().info().serial(),
                Long.toString(acc.stat().oid()), Long.toString(acc.stat().size()),
                Long.toString(acc.stat().mtimeNs()), Long.toString(first.start()),
                Integer.toString(spec.taskletId()), String.valueOf(spec.layout()),
                HexFormat.of().formatHex(spec.params()), host == null ? "-" : host.name(),
                conf.getTrimmed(Placement.LINK_NS_PER_BYTE, ""),
                conf.getTrimmed(Placement.HOST_NS_PER_BYTE, ""),
                conf.getTrimmed(Placement.HOST_NS_PER_RECORD, ""));
    }

    private static PlacementCalibration measure(Configuration conf, TaskletSpec spec,
                                                ScanRange first, HostOperator host,
                                                DeviceAccess acc, long t0) throws IOException {
        RecordLayout layout = spec.layout();
        int page = acc.device().info().pageSize();
        long tOpen = System.nanoTime();
        Optional<ModelCounters> before = acc.device().modelCounters();
        ModelCounters.WorkPrices prices = before.map(ModelCounters::prices)
                .orElse(ModelCounters.WorkPrices.NONE);
        double fw = prices.fwPageOverheadNs();
        double instr = prices.ispPsPerInstruction() / 1000.0;
        double dram = prices.dramAccessNs();
        // two runs, P and 2P pages from the split's start (the drive clamps them to the
        // file): their difference is the cost of a page once the tasklet's state is warm, the
        // rest (the groups' first inserts, the output) a cost per run
        double[] a = probeRun(conf, acc, spec, first.start(), (long) PROBE_PAGES * page,
                fw, instr, dram);
        double[] b = probeRun(conf, acc, spec, first.start(), 2L * PROBE_PAGES * page,
                fw, instr, dram);
        long tProbes = System.nanoTime();
        double perPage = b[0] > a[0] ? (b[1] - a[1]) / (b[0] - a[0]) : a[1] / a[0];
        double perRun = Math.max(0, a[1] - a[0] * perPage);
        String src = String.format(java.util.Locale.ROOT, "device %s: %.0f ns over %d pages, "
                + "%.0f ns over %d", fw > 0 ? "counted work x profile prices" : "drive clock",
                a[1], (long) a[0], b[1], (long) b[0]);
        before = acc.device().modelCounters();

        int rec = layout.kind() == RecordLayout.Kind.FIXED ? layout.recordSize() : 1;
        long firstRecord = (first.start() + rec - 1) / rec * rec;
        long sampleLen = Math.max(0, Math.min(first.start() + first.length() - firstRecord,
                HOST_SAMPLE_BYTES)) / rec * rec;
        byte[] sample = new byte[(int) sampleLen];
        try (FSDataInputStream in = acc.fs().open(first.path())) {
            in.readFully(firstRecord, sample);
        }
        Optional<ModelCounters> after = acc.device().modelCounters();
        long tSample = System.nanoTime();
        double link;
        String configuredLink = conf.getTrimmed(Placement.LINK_NS_PER_BYTE, "");
        if (!configuredLink.isEmpty()) {
            link = Double.parseDouble(configuredLink);
            src += "; link configured";
        } else if (before.isPresent() && after.isPresent()) {
            ModelCounters m0 = before.get();
            ModelCounters m1 = after.get();
            long bytes = (m1.linkBytesIn() + m1.linkBytesOut())
                    - (m0.linkBytesIn() + m0.linkBytesOut());
            link = bytes > 0 ? (m1.linkBusyNs() - m0.linkBusyNs()) / (double) bytes
                    : SATA3_NS_PER_BYTE;
            src += "; link from the drive's model over " + bytes + " B";
        } else {
            link = SATA3_NS_PER_BYTE;
            src += "; link SATA 3 Gb/s";
        }

        double perByte;
        double perRecord = conf.getDouble(Placement.HOST_NS_PER_RECORD, 0);
        String configuredHost = conf.getTrimmed(Placement.HOST_NS_PER_BYTE, "");
        if (!configuredHost.isEmpty()) {
            perByte = Double.parseDouble(configuredHost);
            src += "; host rate configured";
        } else if (host == null) {
            // placement=device without a host version: nothing to weigh, no estimate
            perByte = 0;
            src += "; no host mapper, host not estimated";
        } else {
            perByte = MEASURED_HOST.computeIfAbsent(host.name(),
                    k -> new double[] {measureHost(host, sample)})[0];
            src += "; host rate measured over " + sample.length + " B of records";
        }
        long tHost = System.nanoTime();
        DriveLog.of(PlacementCalibration.class, first.path().toUri().getAuthority()).info(
                "drive {} ({}): calibrated for tasklet {} in {} ms (kept for this JVM's later "
                + "plans): open {} ms, 2 probe runs {} ms, host sample of {} B {} ms, host rate "
                + "{} ms", first.path().toUri().getAuthority(), acc.device().uri(),
                spec.taskletId(), ms(tHost - t0), ms(tOpen - t0), ms(tProbes - tOpen),
                sample.length, ms(tSample - tProbes), ms(tHost - tSample));
        return new PlacementCalibration(page, layout.recordSize(), fw, instr, dram, perPage,
                perRun, link, perByte, perRecord, src);
    }

    private static long ms(long ns) {
        return ns / 1_000_000;
    }

    /** One probe run over [start, start + len): {pages, priced ns}. */
    private static double[] probeRun(Configuration conf, DeviceAccess acc, TaskletSpec spec,
                                     long start, long len, double fw, double instr, double dram)
            throws IOException {
        String out = ScanConf.scratchDir(conf) + "/placement-" + UUID.randomUUID() + ".out";
        TaskletProgress p;
        PROBE_RUNS.incrementAndGet();
        try (TaskletRun run = TaskletRun.start(acc.device(), spec, new InputRange(
                acc.stat().oid(), start, len), out, ScanConf.taskletTimeout(conf), null)) {
            while (!run.finished()) {
                run.next(Duration.ofSeconds(1));
            }
            p = run.last();
        }
        long pages = Math.max(1, p.pagesDone());
        double ns = fw > 0 ? pages * fw + p.instructions() * instr + p.dramAccesses() * dram
                : Math.max(0, p.finishedNs() - p.startedNs());
        return new double[] {pages, ns};
    }

    /** Stores the figures the tasks need (and a reader of the job's configuration sees). */
    public void store(Configuration conf, String drive) {
        String p = Placement.CALIBRATED + drive + ".";
        conf.setInt(p + "page-size", pageSize);
        conf.setInt(p + "record-size", recordSize);
        conf.setDouble(p + "fw-page-ns", fwPageNs);
        conf.setDouble(p + "instruction-ns", instrNs);
        conf.setDouble(p + "dram-access-ns", dramNs);
        conf.setDouble(p + "device.ns-per-page", deviceNsPerPage);
        conf.setDouble(p + "device.ns-per-run", deviceNsPerRun);
        conf.setDouble(p + "link.ns-per-byte", linkNsPerByte);
        conf.setDouble(p + "host.ns-per-byte", hostNsPerByte);
        conf.setDouble(p + "host.ns-per-record", hostNsPerRecord);
        conf.set(p + "source", source);
    }

    public static PlacementCalibration load(Configuration conf, String drive) throws IOException {
        String p = Placement.CALIBRATED + drive + ".";
        if (conf.get(p + "page-size") == null) {
            throw new IOException("placed split on drive " + drive + " but the job holds no "
                    + "calibration for it (" + p + "*): was it planned by DeviceInputFormat?");
        }
        return new PlacementCalibration(conf.getInt(p + "page-size", 0),
                conf.getInt(p + "record-size", 0), conf.getDouble(p + "fw-page-ns", 0),
                conf.getDouble(p + "instruction-ns", 0), conf.getDouble(p + "dram-access-ns", 0),
                conf.getDouble(p + "device.ns-per-page", 0),
                conf.getDouble(p + "device.ns-per-run", 0),
                conf.getDouble(p + "link.ns-per-byte", 0),
                conf.getDouble(p + "host.ns-per-byte", 0),
                conf.getDouble(p + "host.ns-per-record", 0), conf.get(p + "source", ""));
    }

    /** The host operator's thread CPU time per byte over the sample, least of a few rounds. */
    private static double measureHost(HostOperator host, byte[] sample) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (sample.length == 0 || !mx.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("cannot measure the host's rate (no records or no "
                    + "thread CPU clock): set " + Placement.HOST_NS_PER_BYTE);
        }
        long best = Long.MAX_VALUE;
        for (int round = 0; round < HOST_ROUNDS; round++) {
            long t0 = mx.getCurrentThreadCpuTime();
            try {
                host.run(sample);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException("host version " + host.name() + " failed over "
                        + "the calibration sample: " + e.getMessage(), e);
            }
            best = Math.min(best, mx.getCurrentThreadCpuTime() - t0);
        }
        return best / (double) sample.length;
    }
}
