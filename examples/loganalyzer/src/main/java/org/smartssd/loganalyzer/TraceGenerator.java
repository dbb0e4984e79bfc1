package org.smartssd.loganalyzer;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * Writes a synthetic WorldCup98 trace in the trace's own binary format, each record padded to
 * the entry size as Kang did ([Kang 2014, §6.5.3]: entries of 32 to 256 bytes). The same
 * options and seed give the same bytes.
 *
 * <p>What makes it look like a web log (the mixes are assumptions shaped like a 1998 sports
 * site, image-dominated; they are not measured from the real trace):
 * <ul>
 *   <li>object popularity is Zipf over {@code objects} objects; each object keeps one file
 *       type and one size, so repeated requests agree;</li>
 *   <li>clients are Zipf too, each served by one region;</li>
 *   <li>arrivals are a two-state (calm/burst) modulated Poisson process with a daily cycle,
 *       so per-second counts are over-dispersed (bursts around match times);</li>
 *   <li>status, HTTP version and method follow fixed mixes (mostly 200 and 304, HTTP/1.0,
 *       GET); a 304 carries no size, as in a Common Log Format "-".</li>
 * </ul>
 */
public final class TraceGenerator {
    /** 1998-06-10 00:00:00 UTC, the tournament's first day. */
    public static final long DEFAULT_START = 897_436_800L;

    /** Request share per file type code (index = {@link FileType} code). */
    static final double[] TYPE_MIX = {
        0.0980,  // html
        0.8800,  // image
        0.0010,  // audio
        0.0002,  // video
        0.0080,  // java
        0.0005,  // formatted
        0.0030,  // dynamic
        0.0020,  // text
        0.0040,  // compressed
        0.0002,  // programs
        0.0008,  // directory
        0.0001,  // icl
        0.0022,  // other
    };
    /** Client share per region code. */
    static final double[] REGION_MIX = {0.30, 0.17, 0.18, 0.35};
    /** Status index (definitions.h SC_*) and its share: 200, 304, 206, 404, 302, 500. */
    static final int[] STATUS_CODES = {2, 13, 8, 19, 11, 31};
    static final double[] STATUS_MIX = {0.780, 0.190, 0.012, 0.015, 0.002, 0.001};
    /** HTTP/0.9, 1.0, 1.1. */
    static final double[] VERSION_MIX = {0.005, 0.780, 0.215};
    static final double[] METHOD_MIX = {0.9975, 0.0023, 0.0002};
    static final int SERVERS_PER_REGION = 8;
    /** Mean arrivals per second when calm; bursts run {@link #BURST_FACTOR} times faster. */
    static final double CALM_RATE = 400.0;
    static final double BURST_FACTOR = 12.0;
    /** Per-record chances of switching state: calm runs ~20000 records, bursts ~8000. */
    static final double P_CALM_TO_BURST = 1.0 / 20_000;
    static final double P_BURST_TO_CALM = 1.0 / 8_000;
    static final double DAILY_SWING = 0.6;

    /** What to generate. */
    public record Options(long records, long seed, int entrySize, int objects,
                          double objectSkew, int clients, double clientSkew, long startTime) {
        public Options {
            if (records < 0) {
                throw new IllegalArgumentException("record count " + records + " is negative");
            }
            TraceReader.checkEntrySize(entrySize);
            if (objects < 1 || clients < 1) {
                throw new IllegalArgumentException("need at least one object and one client, got "
                        + objects + " objects and " + clients + " clients");
            }
            if (!(objectSkew >= 0) || !(clientSkew >= 0)) {
                throw new IllegalArgumentException("Zipf exponents must be >= 0, got "
                        + objectSkew + " and " + clientSkew);
            }
            if (startTime < 0 || startTime > 0xffffffffL) {
                throw new IllegalArgumentException("start time " + startTime
                        + " is not a 32-bit timestamp");
            }
        }

        /** Defaults: 20000 objects at Zipf 1.0, 50000 clients at Zipf 0.7, from 1998-06-10. */
        public static Options of(long records, long seed, int entrySize) {
            return new Options(records, seed, entrySize, 20_000, 1.0, 50_000, 0.7,
                    DEFAULT_START);
        }
    }

    private final Options opt;
    private final Zipf objectRank;
    private final Zipf clientRank;
    private final int[] objectType;
    private final long[] objectSize;
    private final byte[] clientRegion;

    public TraceGenerator(Options options) {
        this.opt = options;
        this.objectRank = new Zipf(options.objects(), options.objectSkew());
        this.clientRank = new Zipf(options.clients(), options.clientSkew());
        // the catalogue does not depend on the record count: its own stream of the seed
        SplittableRandom cat = new SplittableRandom(options.seed() ^ 0x5DEECE66DL);
        this.objectType = new int[options.objects()];
        this.objectSize = new long[options.objects()];
        for (int i = 0; i < objectType.length; i++) {
            objectType[i] = pick(cat, TYPE_MIX);
            objectSize[i] = sizeOf(cat, objectType[i]);
        }
        this.clientRegion = new byte[options.clients()];
        for (int i = 0; i < clientRegion.length; i++) {
            clientRegion[i] = (byte) pick(cat, REGION_MIX);
        }
    }

    public Options options() {
        return opt;
    }

    /** Bytes the trace will have. */
    public long totalBytes() {
        return opt.records() * opt.entrySize();
    }

    /**
     * Writes the trace.
     *
     * @param progress told the records written so far, every 64 Ki records and at the end
     *                 (may be null)
     */
    public void write(OutputStream out, LongConsumer progress) throws IOException {
        int es = opt.entrySize();
        int perChunk = Math.max(1, (1 << 20) / es);
        ByteBuffer chunk = ByteBuffer.allocate(perChunk * es);
        SplittableRandom rnd = new SplittableRandom(opt.seed());
        double t = 0;
        boolean burst = false;
        long lastReport = 0;
        for (long i = 0; i < opt.records(); i++) {
            if (burst ? rnd.nextDouble() < P_BURST_TO_CALM : rnd.nextDouble() < P_CALM_TO_BURST) {
                burst = !burst;
            }
            double daily = 1 + DAILY_SWING * Math.sin(2 * Math.PI * t / 86_400.0);
            double rate = CALM_RATE * daily * (burst ? BURST_FACTOR : 1);
            t += -Math.log(1 - rnd.nextDouble()) / rate;
            int obj = objectRank.sample(rnd);
            int client = clientRank.sample(rnd);
            int sc = STATUS_CODES[pick(rnd, STATUS_MIX)];
            int ver = pick(rnd, VERSION_MIX);
            int method = pick(rnd, METHOD_MIX);
            int region = clientRegion[client];
            int server = rnd.nextInt(SERVERS_PER_REGION);
            long size = sc == 13 ? WorldCupRecord.NO_SIZE
                    : sc == 2 ? objectSize[obj] : 200 + rnd.nextInt(400);
            long ts = Math.min(0xffffffffL, opt.startTime() + (long) t);
            WorldCupRecord r = new WorldCupRecord(ts, client, obj, size, method,
                    WorldCupRecord.status(ver, sc), objectType[obj],
                    WorldCupRecord.server(region, server));
            int at = chunk.position();
            r.encode(chunk);
            chunk.position(at + es); // the padding stays zero
            if (!chunk.hasRemaining()) {
                out.write(chunk.array(), 0, chunk.position());
                Arrays.fill(chunk.array(), (byte) 0);
                chunk.clear();
            }
            if (progress != null && i + 1 - lastReport >= 65_536) {
                lastReport = i + 1;
                progress.accept(lastReport);
            }
        }
        out.write(chunk.array(), 0, chunk.position());
        out.flush();
        if (progress != null) {
            progress.accept(opt.records());
        }
    }

    /** A response size for an object of this type: log-normal around a per-type median. */
    private static long sizeOf(SplittableRandom r, int type) {
        double median = switch (type) {
            case FileType.IMAGE -> 3_000;
            case FileType.HTML -> 9_000;
            case FileType.AUDIO, FileType.VIDEO -> 400_000;
            case FileType.COMPRESSED, FileType.PROGRAMS -> 150_000;
            case FileType.JAVA -> 15_000;
            default -> 5_000;
        };
        double z = gaussian(r);
        return Math.max(1, Math.min(0xfffffffeL, Math.round(median * Math.exp(1.2 * z))));
    }

    private static double gaussian(SplittableRandom r) {
        double u1 = 1 - r.nextDouble();
        double u2 = r.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    /** An index drawn with the (unnormalised) weights. */
    static int pick(SplittableRandom r, double[] weights) {
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        double u = r.nextDouble() * sum;
        for (int i = 0; i < weights.length - 1; i++) {
            u -= weights[i];
            if (u < 0) {
                return i;
            }
        }
        return weights.length - 1;
    }

    /** Ranks 0..n-1 drawn with probability proportional to 1/(rank+1)^s. */
    static final class Zipf {
        private final double[] cdf;

        Zipf(int n, double s) {
            cdf = new double[n];
            double acc = 0;
            for (int i = 0; i < n; i++) {
                acc += Math.pow(i + 1, -s);
                cdf[i] = acc;
            }
            for (int i = 0; i < n; i++) {
                cdf[i] /= acc;
            }
        }

        int sample(SplittableRandom r) {
            double u = r.nextDouble();
            int i = Arrays.binarySearch(cdf, u);
            i = i >= 0 ? i : -i - 1;
            return Math.min(i, cdf.length - 1);
        }

        /** The probability of rank i. */
        double probability(int i) {
            return i == 0 ? cdf[0] : cdf[i] - cdf[i - 1];
        }
    }
}
