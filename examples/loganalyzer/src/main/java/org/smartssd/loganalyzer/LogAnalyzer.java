package org.smartssd.loganalyzer;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.UUID;
import java.util.function.LongConsumer;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.smartssd.device.HostPowerProfile;
import org.smartssd.device.ModelCounters;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.SmartSsdConstants;
import org.smartssd.fs.SmartSsdFileSystem;
import org.smartssd.loganalyzer.device.DeviceQueryJob;
import org.smartssd.loganalyzer.host.HostJob;
import org.smartssd.loganalyzer.host.LocalHadoop;
import org.smartssd.loganalyzer.model.ExecEnergy;
import org.smartssd.loganalyzer.model.HostCostModel;
import org.smartssd.loganalyzer.spark.SparkQueries;

/**
 * The log analyzer against one drive: loads traces onto it through {@code smartssd://} and
 * runs the three versions of each query over the same file, measuring each run with the
 * drive's model counters. Jobs run in this JVM (LocalJobRunner).
 */
public final class LogAnalyzer implements Closeable {
    /** The drive's name in {@code smartssd://NAME/}. */
    public static final String DEVICE_NAME = "loganalyzer";
    /** Where traces go on the drive: smartssd://DRIVE/traces/NAME.eSIZE. */
    public static final String DRIVE_DIR = "/traces";
    /** Spark's local[N] for the Spark versions: N task threads. */
    public static final int SPARK_CORES = 2;

    private final Path work;
    private final Configuration conf;
    private final SmartSsdFileSystem fs;
    private final HostPowerProfile power;
    private int runs;
    private SparkQueries spark;

    /** A trace on the drive: its path, entry size and size. */
    public record DriveFile(org.apache.hadoop.fs.Path path, int entrySize, long entries) {
        public long bytes() {
            return entries * entrySize;
        }
    }

    private LogAnalyzer(Path work, Configuration conf) throws IOException {
        this.work = work;
        this.conf = conf;
        FileSystem f = FileSystem.newInstance(URI.create(SmartSsdConstants.SCHEME + "://"
                + DEVICE_NAME + "/"), conf);
        if (!(f instanceof SmartSsdFileSystem s)) {
            f.close();
            throw new IOException("smartssd:// is served by " + f.getClass().getName()
                    + ", not SmartSsdFileSystem: check fs.smartssd.impl");
        }
        this.fs = s;
        this.power = HostPowerProfile.fromSystemProperties();
    }

    /**
     * On an embedded emulated drive formatted in {@code work} (removed when the JVM exits).
     *
     * @param capacityBytes raw flash; 0 for the file system's default
     * @param profile       model profile; null for kang-smartssd
     */
    public static LogAnalyzer embedded(Path work, long capacityBytes, String profile)
            throws IOException {
        Configuration c = LocalHadoop.conf(work.resolve("hadoop"));
        c.setBoolean(SmartSsdConstants.EMBEDDED_ALLOWED, true);
        c.set(SmartSsdConstants.EMBEDDED_DIR, work.toAbsolutePath().toString());
        if (capacityBytes > 0) {
            c.setLong(SmartSsdConstants.EMBEDDED_CAPACITY, capacityBytes);
        }
        if (profile != null) {
            c.set(SmartSsdConstants.EMBEDDED_PROFILE, profile);
        }
        return new LogAnalyzer(work, c);
    }

    /** On the drive at {@code deviceUri} ({@code emu:}, {@code unix:} or {@code sg:}). */
    public static LogAnalyzer attached(Path work, String deviceUri) throws IOException {
        Configuration c = LocalHadoop.conf(work.resolve("hadoop"));
        c.set(SmartSsdConstants.DEVICE_PREFIX + DEVICE_NAME + SmartSsdConstants.DEVICE_URI_SUFFIX,
                deviceUri);
        return new LogAnalyzer(work, c);
    }

    /** Raw capacity an embedded drive needs for traces of {@code bytes} in total. */
    public static long capacityFor(long bytes) {
        long need = 2 * bytes + (128L << 20);
        return Math.max(need, SmartSsdConstants.EMBEDDED_CAPACITY_DEFAULT);
    }

    public Configuration conf() {
        return conf;
    }

    public SmartSsdDevice device() throws IOException {
        return fs.device();
    }

    /**
     * Copies a local trace onto the drive, each entry padded (zeros after the 20-byte record)
     * or cut to {@code entrySize}.
     *
     * @param inputEntrySize bytes per entry of the local file (20 for the real trace)
     * @param progress       told the entries copied so far (may be null)
     */
    public DriveFile load(Path local, int inputEntrySize, int entrySize, LongConsumer progress)
            throws IOException {
        TraceReader.checkEntrySize(entrySize);
        String base = local.getFileName().toString().replaceAll("\\.gz$", "")
                .replaceAll("[^A-Za-z0-9._-]", "_");
        org.apache.hadoop.fs.Path dst = new org.apache.hadoop.fs.Path(DRIVE_DIR + "/" + base
                + ".e" + entrySize);
        byte[] in = new byte[inputEntrySize];
        byte[] out = new byte[entrySize];
        try (TraceReader r = TraceReader.open(local, inputEntrySize);
             FSDataOutputStream o = fs.create(dst, true)) {
            while (r.next(in)) {
                System.arraycopy(in, 0, out, 0, WorldCupRecord.BYTES);
                o.write(out);
                if (progress != null && (r.entries() & 0xffff) == 0) {
                    progress.accept(r.entries());
                }
            }
            o.hsync();
            if (progress != null) {
                progress.accept(r.entries());
            }
            return new DriveFile(fs.makeQualified(dst), entrySize, r.entries());
        }
    }

    /** Writes entries that are already in the drive's form (tests, the demo's generator). */
    public DriveFile put(String name, byte[] entries, int entrySize) throws IOException {
        TraceReader.checkEntrySize(entrySize);
        if (entries.length % entrySize != 0) {
            throw new IllegalArgumentException(entries.length + " bytes are not whole "
                    + entrySize + "-byte entries");
        }
        org.apache.hadoop.fs.Path dst = new org.apache.hadoop.fs.Path(DRIVE_DIR + "/" + name);
        try (FSDataOutputStream o = fs.create(dst, true)) {
            o.write(entries);
            o.hsync();
        }
        return new DriveFile(fs.makeQualified(dst), entrySize, entries.length / entrySize);
    }

    /** What a version computed, before the drive's counters are read. */
    private record Work(Answer answer, long records, long mapOutputs, long hostCpuNs,
                        SparkQueries.Result spark) {
    }

    /** Runs one version of a query over a file on the drive. */
    public RunResult run(Query q, Mode mode, DriveFile file)
            throws IOException, InterruptedException {
        SmartSsdDevice dev = fs.device();
        SparkQueries s = mode.engine() == Engine.SPARK ? spark() : null; // started untimed
        ModelCounters a = dev.modelCounters().orElse(null);
        long t0 = System.nanoTime();
        Work w = s != null ? sparkRun(s, q, mode, file) : mapReduceRun(q, mode, file);
        long wall = System.nanoTime() - t0;
        ModelCounters b = dev.modelCounters().orElse(null);
        if (a == null || b == null) {
            return new RunResult(q, mode, file.entrySize(), w.answer(), wall, false, 0, 0, 0,
                    w.hostCpuNs(), 0, dev.bytesToDrive() + dev.bytesFromDrive(), w.records(),
                    w.mapOutputs(), new ExecEnergy(Double.NaN, Double.NaN), w.spark());
        }
        long link = b.linkBusyNs() - a.linkBusyNs();
        long isp = b.ispBusyNs() - a.ispBusyNs();
        long modelled = link + w.hostCpuNs() + (mode.onHost() ? 0 : isp);
        double deviceJ = ((b.energyIspNj() - a.energyIspNj())
                + (b.energyNandReadNj() - a.energyNandReadNj())
                + (b.energyLinkNj() - a.energyLinkNj())) / 1e9;
        ExecEnergy e = mode.onHost() ? ExecEnergy.hostVersion(power, modelled, deviceJ)
                : ExecEnergy.deviceVersion(power, modelled, deviceJ);
        return new RunResult(q, mode, file.entrySize(), w.answer(), wall, true, modelled, link,
                isp, w.hostCpuNs(), b.nowNs() - a.nowNs(),
                (b.linkBytesIn() + b.linkBytesOut()) - (a.linkBytesIn() + a.linkBytesOut()),
                w.records(), w.mapOutputs(), e, w.spark());
    }

    private Work mapReduceRun(Query q, Mode mode, DriveFile file)
            throws IOException, InterruptedException {
        org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(work.resolve("out")
                .resolve(q.cliName() + "-" + mode.cliName() + "-" + (runs++) + "-"
                        + UUID.randomUUID()).toUri());
        if (mode.onHost()) {
            HostJob.Result r = HostJob.run(conf, q, mode, file.path(), file.entrySize(), out);
            return new Work(r.answer(), r.inputRecords(), r.mapOutputRecords(),
                    HostCostModel.hostCpuNs(q, r.bytesRead(), r.inputRecords(),
                            r.mapOutputRecords()), null);
        }
        DeviceQueryJob.Result r = DeviceQueryJob.run(conf, q, file.path(), file.entrySize(),
                out);
        // the host only merges the groups the drive returned
        return new Work(r.answer(), r.recordsScanned(), r.mapOutputRecords(),
                HostCostModel.hostCpuNs(q, 0, 0, r.mapOutputRecords()), null);
    }

    /**
     * Spark SQL over the file. The host model is the MapReduce versions': without pushdown
     * Spark reads every byte, runs the query per record and shuffles its partial groups (as
     * host-optimized's combined map outputs); with pushdown it merges the drive's groups.
     */
    private static Work sparkRun(SparkQueries s, Query q, Mode mode, DriveFile file) {
        if (mode == Mode.SPARK_PUSHDOWN) {
            SparkQueries.Result r = s.run(q, file.path().toString(), file.entrySize(), true);
            return new Work(r.answer(), r.driveScanned() / file.entrySize(), r.scanRows(),
                    HostCostModel.hostCpuNs(q, 0, 0, r.scanRows()), r);
        }
        SparkQueries.Result r = s.run(q, file.path().toString(), file.entrySize(), false);
        return new Work(r.answer(), r.scanRows(), r.partialGroups(),
                HostCostModel.hostCpuNs(q, r.linkBytes(), r.scanRows(), r.partialGroups()), r);
    }

    /** The Spark session over this analyzer's drive, started on first use. */
    public synchronized SparkQueries spark() {
        if (spark == null) {
            spark = SparkQueries.start(conf, work, SPARK_CORES);
        }
        return spark;
    }

    /** Removes a file from the drive. */
    public void remove(DriveFile f) throws IOException {
        fs.delete(f.path(), false);
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (spark != null) {
                spark.close();
                spark = null;
            }
        }
        fs.close();
    }
}
