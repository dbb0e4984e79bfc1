package org.smartssd.benchmarks.sscache;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.CRC32;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.smartssd.device.ModelCounters;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.impl.DriveRegistry;
import org.smartssd.fs.impl.DriveResolver;
import org.smartssd.fs.sscache.CacheStatistics;
import org.smartssd.fs.sscache.SsCacheFileSystem;

/**
 * A data set on a slow backing store, scanned repeatedly through Hadoop's FileSystem API:
 * once directly on the backing store (the reference), then through {@code sscache://} cold
 * (empty cache) and warm. The backing store is {@link ThrottledFileSystem} at a stated rate;
 * the drive an embedded emulated kang-smartssd. Figures: host wall-clock, and modelled time
 * from two resources, the drive (D: its clock's advance over the scan, every fill made) and
 * the backing store's stream (S: backing bytes / rate). In virtual time (the default) the
 * drive's clock moves only by the modelled work of its commands, so both count operations
 * alone; in realtime a command arrives no earlier than the wall clock, so the drive's clock
 * also counts the host's time between commands (its reads of the backing store among them).
 *
 * <p>A scan with no hit (the cold one) overlaps the two: {@code sscache://} queues its fills
 * (FillQueue), so while the drive writes window i the reader reads window i + 1 from the
 * store; closing a file waits for its fills. So each of the n files (all alike) is a
 * two-stage pipeline over its w / n windows: stage one the reader (its lookup, l, found by
 * a probe of a missing window, then the window's store read), stage two the window's fill
 * on the drive (F = D - w l in all), a lookup going before a queued fill. A file takes
 * max(s + v l + f / v, s / v + l + f) with s = S / n, v = w / n, f = F / n: the store-bound
 * and the drive-bound case, each with what the other resource must do first (the file's
 * first store read) or last (its last fill); windows taken as alike (their averages). Any
 * other scan (hits, or hits and misses) is modelled as D + S, with no overlap; the cold
 * scan's D + S is printed beside it. Not a test: run by
 * {@code benchmarks/run-sscache-scan.sh}.
 *
 * <p>Arguments: {@code [--files N] [--file-mib M] [--rate-mbs R] [--warm K]
 * [--drive-mib D] [--time virtual|realtime] [--csv FILE]} (defaults 8, 8, 50, 3, 1024,
 * virtual).
 */
public final class SsCacheScanBenchmark {
    private static final int CALL = 1 << 20;

    private SsCacheScanBenchmark() {
    }

    private record Scan(String phase, double wallS, double modelS, double serialS, long bytes,
                        long fromBacking, long fromCache, double hitRatio, long checksum) {
    }

    /** Fills still queued after a scan are waited for this long before the figures. */
    private static final long FILL_DRAIN_MS = 600_000;

    public static void main(String[] args) throws Exception {
        int files = 8;
        int fileMib = 8;
        double rateMBs = 50;
        int warm = 3;
        long driveMib = 1024;
        String time = "virtual";
        Path csv = Path.of("benchmarks/results/sscache-scan/sscache-scan.csv");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--files" -> files = Integer.parseInt(args[++i]);
                case "--file-mib" -> fileMib = Integer.parseInt(args[++i]);
                case "--rate-mbs" -> rateMBs = Double.parseDouble(args[++i]);
                case "--warm" -> warm = Integer.parseInt(args[++i]);
                case "--drive-mib" -> driveMib = Long.parseLong(args[++i]);
                case "--time" -> time = args[++i];
                case "--csv" -> csv = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; use --files N --file-mib M --rate-mbs R --warm K --drive-mib D "
                        + "--time virtual|realtime --csv FILE");
            }
        }
        Path dir = Files.createTempDirectory("sscache-scan-");
        try {
            Path data = Files.createDirectories(dir.resolve("data"));
            Random random = new Random(42);
            byte[] chunk = new byte[CALL];
            for (int f = 0; f < files; f++) {
                try (var out = Files.newOutputStream(data.resolve("part-" + f))) {
                    for (int m = 0; m < fileMib; m++) {
                        random.nextBytes(chunk);
                        out.write(chunk);
                    }
                }
            }
            long dataBytes = (long) files * fileMib << 20;
            Configuration conf = new Configuration();
            conf.set("fs.throttled.impl", ThrottledFileSystem.class.getName());
            conf.setBoolean("fs.throttled.impl.disable.cache", true);
            conf.setDouble(ThrottledFileSystem.RATE, rateMBs * 1e6);
            conf.setBoolean("smartssd.device.embedded.allowed", true);
            conf.set("smartssd.device.embedded.time", time);
            conf.set("smartssd.device.embedded.capacity", (driveMib << 20) + "");
            conf.set("smartssd.cache.bench.backing", "throttled://" + dir.toUri().getPath());

            System.out.printf(Locale.ROOT, "scan of %d files x %d MiB = %.1f MB; backing store "
                    + "throttled to %.0f MB/s; drive kang-smartssd, %d MiB, 25 %% cache, "
                    + "%s time; 1 MB = 1e6 B%n", files, fileMib, dataBytes / 1e6, rateMBs, driveMib,
                    time);
            List<Scan> scans = new ArrayList<>();
            try (FileSystem backing = FileSystem.newInstance(
                    URI.create("throttled://" + dir.toUri().getPath()), conf)) {
                ThrottledFileSystem t = (ThrottledFileSystem) backing;
                t.resetBucket();
                long t0 = System.nanoTime();
                long sum = scan(backing, new org.apache.hadoop.fs.Path(dir.toUri().getPath()
                        + "/data"));
                double wall = (System.nanoTime() - t0) / 1e9;
                double s = t.bytesRead() / t.rate();
                scans.add(new Scan("backing only", wall, s, s, dataBytes, t.bytesRead(), 0,
                        Double.NaN, sum));
            }
            try (SsCacheFileSystem fs = (SsCacheFileSystem) FileSystem.newInstance(
                    URI.create("sscache://bench/"), conf)) {
                ThrottledFileSystem t = (ThrottledFileSystem) fs.backing();
                String driveUri = DriveResolver.resolve("bench", conf).uri();
                try (DriveRegistry.Lease lease = DriveRegistry.acquire(driveUri,
                        SmartSsdDevice::open)) {
                    double lookupS = missLookupNs(lease.device()) / 1e9;
                    System.out.printf(Locale.ROOT, "  a lookup of a missing window: %.1f us "
                            + "modelled%n", lookupS * 1e6);
                    for (int k = 0; k <= warm; k++) {
                        t.resetBucket();
                        IOStatistics before = fs.getIOStatistics();
                        ModelCounters mb = counters(lease.device());
                        long t0 = System.nanoTime();
                        long sum = scan(fs, new org.apache.hadoop.fs.Path("/data"));
                        double wall = (System.nanoTime() - t0) / 1e9;
                        fs.awaitFills(FILL_DRAIN_MS);
                        // the phase ends when its fills' programs have: the next one starts
                        // on an idle drive, its reads behind none of them, and the two
                        // clocks count the same interval
                        lease.device().flush();
                        ModelCounters ma = counters(lease.device());
                        double driveS = (ma.nowNs() - mb.nowNs()) / 1e9;
                        IOStatistics after = fs.getIOStatistics();
                        var cc = lease.device().cacheCounters();
                        System.out.printf(Locale.ROOT, "  after %s: cache holds %d of %d blocks, "
                                + "%d silently evicted (%d erase blocks), write amplification "
                                + "%.2f; drive %.3f s modelled (host clock %.3f s): %d "
                                + "commands, %d page reads, %d programs, %d erases, link busy "
                                + "%.3f s%n",
                                k == 0 ? "the cold scan" : "warm scan " + k,
                                cc.cachedBlocks(), cc.capacityBlocks(), cc.silentEvictedPages(),
                                cc.silentEvictedBlocks(), cc.writeAmplificationMilli() / 1000.0,
                                driveS, (ma.hostNowNs() - mb.hostNowNs()) / 1e9,
                                ma.hostCommands() - mb.hostCommands(),
                                ma.pageReads() - mb.pageReads(),
                                ma.pagePrograms() - mb.pagePrograms(),
                                ma.blockErases() - mb.blockErases(),
                                (ma.linkBusyNs() - mb.linkBusyNs()) / 1e9);
                        long hits = delta(before, after, CacheStatistics.BLOCK_HITS);
                        long misses = delta(before, after, CacheStatistics.BLOCK_MISSES);
                        long windows = delta(before, after, CacheStatistics.LOOKUPS);
                        double storeS = t.bytesRead() / t.rate();
                        double serial = driveS + storeS;
                        double model = serial;
                        if (hits == 0 && windows > 0) {
                            double fillS = driveS - windows * lookupS;
                            double s = storeS / files, v = (double) windows / files;
                            double f = fillS / files;
                            model = files * Math.max(s + v * lookupS + f / v,
                                    s / v + lookupS + f);
                            System.out.printf(Locale.ROOT, "  overlapped: store %.3f s + %d "
                                    + "lookups %.4f s, fills %.3f s on the drive: %.3f s "
                                    + "(%.3f s one after the other)%n", storeS, windows,
                                    windows * lookupS, fillS, model, serial);
                        }
                        scans.add(new Scan(k == 0 ? "sscache cold" : "sscache warm " + k, wall,
                                model, serial, dataBytes, t.bytesRead(),
                                delta(before, after, CacheStatistics.BYTES_FROM_CACHE),
                                hits + misses == 0 ? Double.NaN : (double) hits / (hits + misses),
                                sum));
                    }
                }
            }
            report(scans, csv, rateMBs);
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * The drive's modelled time of one lookup that misses (a window of 1 MiB of blocks, as a
     * reader's), on the host clock, at a block no file uses (the cache is empty). Each
     * counter read costs a command: the second pair's difference less the first's.
     */
    private static long missLookupNs(SmartSsdDevice device) throws IOException {
        var cache = device.cache();
        int n = Math.max(1, (1 << 20) / cache.blockSize());
        byte[] buf = new byte[n * cache.blockSize()];
        long a = counters(device).hostNowNs();
        long b = counters(device).hostNowNs();
        long[] present = cache.read(PROBE_BLOCK, n, buf, 0);
        long c = counters(device).hostNowNs();
        for (long w : present) {
            if (w != 0) {
                throw new IllegalStateException("the lookup probe at block " + PROBE_BLOCK
                        + " hit: the cache is not empty");
            }
        }
        return (c - b) - (b - a);
    }

    /** A block in the top file range of CacheBlock.Addresses, which the data set's few
     *  files miss but by a hash collision (then the probe hits and the run stops). */
    private static final long PROBE_BLOCK = 0x7FFF_FFFF_FFF0_0000L;

    private static ModelCounters counters(SmartSsdDevice device) throws IOException {
        return device.modelCounters().orElseThrow(
                () -> new IllegalStateException("the drive has no model clock"));
    }

    private static long delta(IOStatistics a, IOStatistics b, String name) {
        return b.counters().getOrDefault(name, 0L) - a.counters().getOrDefault(name, 0L);
    }

    /** Reads every file under {@code root} in 1 MiB calls; returns a CRC of everything. */
    private static long scan(FileSystem fs, org.apache.hadoop.fs.Path root) throws IOException {
        CRC32 crc = new CRC32();
        byte[] buf = new byte[CALL];
        FileStatus[] list = fs.listStatus(root);
        java.util.Arrays.sort(list, Comparator.comparing(FileStatus::getPath));
        for (FileStatus st : list) {
            try (FSDataInputStream in = fs.open(st.getPath())) {
                for (int n; (n = in.read(buf)) > 0; ) {
                    crc.update(buf, 0, n);
                }
            }
        }
        return crc.getValue();
    }

    private static void report(List<Scan> scans, Path csv, double rateMBs) throws IOException {
        Scan reference = scans.get(0);
        System.out.printf(Locale.ROOT, "%-14s %9s %9s %9s %9s %10s %10s %6s%n", "phase", "wall s",
                "model s", "wall MB/s", "x ref", "backing MB", "cache MB", "hits");
        Files.createDirectories(csv.toAbsolutePath().getParent());
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(csv,
                StandardCharsets.UTF_8))) {
            out.println("phase,wall_s,model_s,model_serial_s,bytes,bytes_from_backing,"
                    + "bytes_from_cache,hit_ratio,speedup_wall_vs_backing,"
                    + "speedup_model_vs_backing,backing_rate_MBps,crc32");
            for (Scan s : scans) {
                if (s.checksum() != reference.checksum()) {
                    throw new IllegalStateException(s.phase() + " read other bytes than the "
                            + "backing store holds: CRC " + s.checksum() + " vs "
                            + reference.checksum());
                }
                System.out.printf(Locale.ROOT, "%-14s %9.2f %9.2f %9.1f %9.2f %10.1f %10.1f %6s%n",
                        s.phase(), s.wallS(), s.modelS(), s.bytes() / 1e6 / s.wallS(),
                        reference.wallS() / s.wallS(), s.fromBacking() / 1e6,
                        s.fromCache() / 1e6, Double.isNaN(s.hitRatio()) ? "-"
                                : String.format(Locale.ROOT, "%.2f", s.hitRatio()));
                out.printf(Locale.ROOT, "%s,%.4f,%.4f,%.4f,%d,%d,%d,%s,%.3f,%.3f,%.1f,%d%n",
                        s.phase(), s.wallS(), s.modelS(), s.serialS(), s.bytes(), s.fromBacking(),
                        s.fromCache(), Double.isNaN(s.hitRatio()) ? ""
                                : String.format(Locale.ROOT, "%.4f", s.hitRatio()),
                        reference.wallS() / s.wallS(), reference.modelS() / s.modelS(), rateMBs,
                        s.checksum());
            }
        }
        System.out.println("CSV: " + csv);
    }
}
