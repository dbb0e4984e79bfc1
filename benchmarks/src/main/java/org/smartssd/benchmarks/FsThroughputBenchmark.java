package org.smartssd.benchmarks;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.smartssd.device.ModelCounters;
import org.smartssd.device.ObjectType;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.SmartSsdConstants;
import org.smartssd.fs.SmartSsdFileSystem;

/**
 * Sequential write and read throughput through Hadoop's FileSystem API: smartssd:// on an
 * embedded emulated drive (kang-smartssd) against file:// on the same machine, in one run.
 * Host wall-clock, median of the runs; 1 MB = 1e6 bytes.
 *
 * <ul>
 *   <li>virtual time: the drive answers as fast as the host can run it, so the figure is the
 *       host stack's cost (Java, JNI, libsmartssd, the firmware in this process); the drive's
 *       own modelled time for the same bytes is printed beside it.</li>
 *   <li>realtime: every command completes no earlier than its modelled completion, so the
 *       wall clock sees the drive's speed, bounded by the profile's link
 *       (kang-smartssd: 300e6 B/s, SATA 3 Gb/s).</li>
 * </ul>
 * Not a test: run by {@code benchmarks/run-fs-throughput.sh}.
 *
 * <p>Arguments: {@code [--size-mib N] [--realtime-size-mib M] [--runs R] [--local-dir DIR]}.
 */
public final class FsThroughputBenchmark {
    private static final int CHUNK = 1 << 20;
    /** kang-smartssd's link_bytes_per_s (firmware-tasklets/emu/profiles/kang-smartssd.profile). */
    private static final double KANG_LINK_BYTES_PER_S = 300e6;

    private FsThroughputBenchmark() {
    }

    /** Medians; the model figures are the drive's modelled time for the same bytes (NaN
     *  for file://), the link figure bytes over the modelled link-busy time. */
    private record Result(String fs, double writeMBs, double readMBs, double modelWriteMBs,
                          double modelReadMBs, double modelLinkMBs) {
    }

    public static void main(String[] args) throws Exception {
        int sizeMib = 256;
        int realtimeMib = 128;
        int runs = 3;
        Path localDir = Path.of(System.getProperty("java.io.tmpdir"));
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--size-mib" -> sizeMib = Integer.parseInt(args[++i]);
                case "--realtime-size-mib" -> realtimeMib = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--local-dir" -> localDir = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; use --size-mib N --realtime-size-mib M --runs R --local-dir DIR");
            }
        }
        byte[] chunk = new byte[CHUNK];
        new Random(42).nextBytes(chunk);
        long bytes = (long) sizeMib << 20;

        System.out.printf(Locale.ROOT, "sequential throughput, %d MiB file, %d-byte I/O calls, "
                + "median of %d runs, host wall-clock (1 MB = 1e6 B)%n", sizeMib, CHUNK, runs);
        List<Result> results = new ArrayList<>();
        Path local = Files.createTempDirectory(localDir, "fs-throughput-");
        try {
            Configuration conf = new Configuration();
            conf.setBoolean(SmartSsdConstants.EMBEDDED_ALLOWED, true);
            conf.setLong(SmartSsdConstants.EMBEDDED_CAPACITY, 2 * bytes + (64L << 20));
            conf.set(SmartSsdConstants.EMBEDDED_DIR, local.toString());
            results.add(measure("smartssd:// virtual", URI.create("smartssd://bench/"), conf,
                    bytes, chunk, runs));
            results.add(measureDevice(URI.create("smartssd://benchdev/"), conf, bytes, runs));

            Configuration lc = new Configuration();
            results.add(measure("file://", local.toUri(), lc, bytes, chunk, runs));
            lc.setBoolean("fs.file.impl.disable.cache", true);
            results.add(measureRaw(local, lc, bytes, chunk, runs));

            long rtBytes = (long) realtimeMib << 20;
            Configuration rt = new Configuration(conf);
            rt.set(SmartSsdConstants.EMBEDDED_TIME, "realtime");
            rt.setLong(SmartSsdConstants.EMBEDDED_CAPACITY, 2 * rtBytes + (64L << 20));
            results.add(measure("smartssd:// realtime", URI.create("smartssd://benchrt/"), rt,
                    rtBytes, chunk, runs));
        } finally {
            deleteTree(local);
        }

        System.out.printf(Locale.ROOT, "%n%-24s %10s %10s %12s %12s %12s%n", "", "write",
                "read", "model write", "model read", "model link");
        for (Result r : results) {
            System.out.printf(Locale.ROOT, "%-24s %10.1f %10.1f %12s %12s %12s%n", r.fs(),
                    r.writeMBs(), r.readMBs(), model(r.modelWriteMBs()), model(r.modelReadMBs()),
                    model(r.modelLinkMBs()));
        }
        System.out.println("(MB/s; model = the drive's modelled time for the same bytes, link = "
                + "bytes over modelled link-busy time)");
        Result ss = results.get(0);
        Result dev = results.get(1);
        Result file = results.get(2);
        Result rtr = results.get(4);
        System.out.printf(Locale.ROOT, "%nsmartssd:// virtual / file://:          write %.2f, "
                + "read %.2f%n", ss.writeMBs() / file.writeMBs(), ss.readMBs() / file.readMBs());
        System.out.printf(Locale.ROOT, "smartssd:// virtual / device API:       write %.2f, "
                + "read %.2f%n", ss.writeMBs() / dev.writeMBs(), ss.readMBs() / dev.readMBs());
        System.out.printf(Locale.ROOT, "smartssd:// realtime / drive model:     write %.2f, "
                + "read %.2f%n", rtr.writeMBs() / rtr.modelWriteMBs(),
                rtr.readMBs() / rtr.modelReadMBs());
        System.out.printf(Locale.ROOT, "smartssd:// realtime / link (%.0f MB/s): write %.2f, "
                + "read %.2f%n", KANG_LINK_BYTES_PER_S / 1e6,
                rtr.writeMBs() * 1e6 / KANG_LINK_BYTES_PER_S,
                rtr.readMBs() * 1e6 / KANG_LINK_BYTES_PER_S);
    }

    private static String model(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static Result measure(String name, URI uri, Configuration conf, long bytes,
                                  byte[] chunk, int runs) throws IOException {
        try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
            return run(name, fs, new org.apache.hadoop.fs.Path(uri.resolve("bench.dat")), bytes,
                    chunk, runs);
        }
    }

    private static Result measureRaw(Path local, Configuration conf, long bytes, byte[] chunk,
                                     int runs) throws IOException {
        try (FileSystem fs = FileSystem.getLocal(conf).getRawFileSystem()) {
            return run("file:// raw (no .crc)", fs,
                    new org.apache.hadoop.fs.Path(local.toUri().resolve("raw.dat")), bytes, chunk,
                    runs);
        }
    }

    private static Result run(String name, FileSystem fs, org.apache.hadoop.fs.Path file,
                              long bytes, byte[] chunk, int runs) throws IOException {
        double[] w = new double[runs];
        double[] r = new double[runs];
        double[] mw = new double[runs];
        double[] mr = new double[runs];
        double[] ml = new double[runs];
        byte[] in = new byte[chunk.length];
        for (int i = 0; i < runs; i++) {
            ModelCounters m0 = model(fs);
            long t0 = System.nanoTime();
            try (FSDataOutputStream out = fs.create(file, true)) {
                for (long done = 0; done < bytes; done += chunk.length) {
                    out.write(chunk, 0, (int) Math.min(chunk.length, bytes - done));
                }
            }
            long t1 = System.nanoTime();
            ModelCounters m1 = model(fs);
            long got = 0;
            try (FSDataInputStream s = fs.open(file)) {
                for (int n; (n = s.read(in, 0, in.length)) > 0; ) {
                    got += n;
                }
            }
            long t2 = System.nanoTime();
            ModelCounters m2 = model(fs);
            if (got != bytes) {
                throw new IOException(name + ": read " + got + " bytes of " + bytes);
            }
            w[i] = bytes / ((t1 - t0) / 1e9) / 1e6;
            r[i] = bytes / ((t2 - t1) / 1e9) / 1e6;
            mw[i] = m0 == null ? Double.NaN : bytes / ((m1.nowNs() - m0.nowNs()) / 1e9) / 1e6;
            mr[i] = m0 == null ? Double.NaN : bytes / ((m2.nowNs() - m1.nowNs()) / 1e9) / 1e6;
            ml[i] = m0 == null ? Double.NaN
                    : 2.0 * bytes / ((m2.linkBusyNs() - m0.linkBusyNs()) / 1e9) / 1e6;
            fs.delete(file, false);
            System.out.printf(Locale.ROOT, "  %-22s run %d: write %8.1f MB/s, read %8.1f MB/s%n",
                    name, i + 1, w[i], r[i]);
        }
        return new Result(name, median(w), median(r), median(mw), median(mr), median(ml));
    }

    /** The same transfers through SmartSsdDevice directly (1 MiB direct buffers): the cost
     *  the FileSystem layer adds is the difference. */
    private static Result measureDevice(URI uri, Configuration conf, long bytes, int runs)
            throws IOException {
        double[] w = new double[runs];
        double[] r = new double[runs];
        try (SmartSsdFileSystem fs = (SmartSsdFileSystem) FileSystem.newInstance(uri, conf)) {
            SmartSsdDevice dev = fs.device();
            ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK);
            for (int i = 0; i < runs; i++) {
                long oid = dev.create("/direct.dat", ObjectType.FILE);
                long t0 = System.nanoTime();
                for (long off = 0; off < bytes; off += CHUNK) {
                    buf.clear();
                    dev.write(oid, off, buf, false);
                }
                long t1 = System.nanoTime();
                for (long off = 0; off < bytes; off += CHUNK) {
                    buf.clear();
                    dev.read(oid, off, buf);
                }
                long t2 = System.nanoTime();
                dev.remove("/direct.dat", false);
                w[i] = bytes / ((t1 - t0) / 1e9) / 1e6;
                r[i] = bytes / ((t2 - t1) / 1e9) / 1e6;
                System.out.printf(Locale.ROOT, "  %-22s run %d: write %8.1f MB/s, read %8.1f "
                        + "MB/s%n", "device API", i + 1, w[i], r[i]);
            }
        }
        return new Result("SmartSsdDevice (no FS)", median(w), median(r), Double.NaN, Double.NaN,
                Double.NaN);
    }

    private static ModelCounters model(FileSystem fs) throws IOException {
        if (fs instanceof SmartSsdFileSystem s) {
            return s.device().modelCounters().orElse(null);
        }
        return null;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
