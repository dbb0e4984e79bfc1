package org.smartssd.spark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.LongToDoubleFunction;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.smartssd.device.HostPowerProfile;
import org.smartssd.device.ModelCounters;
import org.smartssd.scan.DeviceAccess;
import org.smartssd.scan.Placement;
import org.smartssd.scan.parquet.ParquetDriveScan;
import org.smartssd.scan.parquet.ParquetFooter;
import org.smartssd.scan.parquet.ParquetHostModel;

/**
 * {@code placement=auto} for a Parquet read: per file, the modelled time and energy of its
 * row groups in the drive and on the host, and the cheaper in time chosen.
 *
 * <ul>
 *   <li>Host: what Spark's own reader moves and decodes. The footer once and each needed
 *       column chunk once over the link (their sizes from the footer), at the link's time per
 *       byte ({@value Placement#LINK_NS_PER_BYTE}, else the drive's model while the host reads
 *       a chunk, else SATA 3 Gb/s, as {@code PlacementCalibration}); then
 *       {@link ParquetHostModel} for decoding the rows of the columns read and the pushed
 *       aggregate's rows.</li>
 *   <li>Device: the file's first row group run in the drive with the scan's own plan, its
 *       counted work (pages, ISP instructions, DRAM accesses) priced by the drive's profile,
 *       its output over the link and the returned rows decoded by {@link ParquetHostModel},
 *       scaled by rows to the file's row groups.</li>
 * </ul>
 * Energy: the drive's ISP (its active power over its time) and the link's per-byte energy,
 * plus the host's busy power over its CPU time ({@link HostPowerProfile}); the host's idle
 * power over the modelled time is left out, as it is the same per second on both sides.
 */
final class ParquetAutoPlacement {
    /** At most this much of a chunk is read to take the link's rate from the drive's model. */
    private static final int LINK_SAMPLE_BYTES = 1 << 20;
    /** 8192 B over SATA 3 Gb/s, 300e6 B/s after 8b/10b ([Kang 2014, §6.5.1]). */
    private static final double SATA3_NS_PER_BYTE = 1e9 / 300e6;
    private static final org.slf4j.Logger LOG =
            org.slf4j.LoggerFactory.getLogger(ParquetAutoPlacement.class);

    private ParquetAutoPlacement() {
    }

    /** One file's two estimates, in modelled ns and J. */
    record Estimate(double deviceNs, double hostNs, double deviceJ, double hostJ, String why) {
        boolean host() {
            return hostNs < deviceNs;
        }

        String described() {
            return String.format(Locale.ROOT, "device %s, host %s est.", seconds(deviceNs),
                    seconds(hostNs));
        }

        static String seconds(double ns) {
            double s = ns / 1e9;
            return String.format(Locale.ROOT, s >= 10 ? "%.1f s" : s >= 0.1 ? "%.2f s"
                    : "%.4f s", s);
        }
    }

    /**
     * The estimates of reading {@code groups} of {@code footer}'s file; the first is run in
     * the drive. Empty when the drive has no model counters to price its work with, or
     * refuses the row group (read on the host then, as any such row group).
     */
    static Optional<Estimate> estimate(ParquetReadPlan plan, ParquetFooter footer,
                                       List<BlockMetaData> groups) throws IOException {
        Configuration conf = plan.conf().hadoop();
        Path file = footer.path();
        DeviceAccess acc = DeviceAccess.of(file, conf);
        Optional<ModelCounters> counters = acc.device().modelCounters();
        if (counters.isEmpty() || groups.isEmpty()) {
            return Optional.empty();
        }
        ModelCounters.WorkPrices prices = counters.get().prices();
        long rows = 0;
        for (BlockMetaData g : groups) {
            rows += g.getRowCount();
        }
        List<ColumnChunkMetaData> chunks = new ArrayList<>();
        for (BlockMetaData g : groups) {
            for (ColumnChunkMetaData c : g.getColumns()) {
                if (plan.hostSchema().getFieldIndex(c.getPath().toDotString()).isDefined()) {
                    chunks.add(c);
                }
            }
        }
        double link = linkNsPerByte(conf, acc, file, chunks);
        HostPowerProfile power = HostPowerProfile.fromSystemProperties();

        // Device. Scaling one row group's counted work by rows is honest for parquet-scan:
        // its work is per page and per value decoded, and the row groups of one file (one
        // writer, one schema, near-equal rows) have the same composition; the probe's cost is
        // real drive time, counted as the query's. A run's own cost (its buffers, allocated
        // once for all its row groups) is so charged once per row group: an upper bound
        // where a partition runs several together, which leans towards the host. Probing a
        // second run to take that cost apart was tried: three row groups' probes cost more
        // than the estimate gained on small tables (benchmarks/README.md, Parquet).
        BlockMetaData first = groups.get(0);
        ParquetRowGroupReader.DriveRun run;
        try {
            run = ParquetRowGroupReader.runInDrive(plan, file, footer, List.of(first));
        } catch (ParquetDriveScan.Unsupported e) {
            return Optional.empty();
        }
        ParquetDriveScan.Work w = run.result().work();
        double scale = first.getRowCount() == 0 ? groups.size()
                : rows / (double) first.getRowCount();
        double ispNs = w.ispNs(prices) * scale;
        double outBytes = w.outputBytes() * scale;
        double decodeReturned = returnedCpuNs(plan, footer, groups,
                Math.round(returnedRows(plan, run.result()) * scale));
        double deviceNs = ispNs + outBytes * link + decodeReturned;
        double deviceJ = ispNs * prices.ispActiveMw() * 1e-12
                + outBytes * prices.linkPjPerByte() * 1e-12
                + power.busyJoules(decodeReturned / 1e9);

        // Host
        long bytes = footerBytes(acc, file);
        for (ColumnChunkMetaData c : chunks) {
            bytes += c.getTotalSize();
        }
        double cpu = hostCpuNs(plan, footer, groups, rows);
        double hostNs = bytes * link + cpu;
        double hostJ = bytes * prices.linkPjPerByte() * 1e-12 + power.busyJoules(cpu / 1e9);
        String why = String.format(Locale.ROOT, "device: row group 0 of %d (%d of %d rows) "
                + "run, %d pages, %d instructions, %d DRAM accesses, %d B out; host: %d B over "
                + "the link; link %.3f ns/B", groups.size(), first.getRowCount(), rows, w.pages(),
                w.instructions(), w.dramAccesses(), w.outputBytes(), bytes, link);
        Estimate e = new Estimate(deviceNs, hostNs, deviceJ, hostJ, why);
        LOG.info("{}: placement=auto: {} ({}; {})", file, e.host() ? "host" : "device",
                e.described(), why);
        return Optional.of(e);
    }

    /**
     * The host's CPU for reading {@code rows} rows of {@code groups} with Spark's reader and
     * doing the pushed work over them: every column of the host schema decoded, and an
     * aggregate's rows combined (its partial groups are the same on both sides).
     */
    static double hostCpuNs(ParquetReadPlan plan, ParquetFooter footer,
                            List<BlockMetaData> groups, long rows) {
        return hostCpu(plan, footer, groups).applyAsDouble(rows);
    }

    /**
     * {@link #hostCpuNs} as a function of the rows, its per-column inputs taken from the
     * footer once: a reader's metrics are asked for every 100 rows, and the footer's walk
     * costs per row group and column (a 128 MB run of 1,024-row groups has 1,700 of them).
     */
    static LongToDoubleFunction hostCpu(ParquetReadPlan plan, ParquetFooter footer,
                                        List<BlockMetaData> groups) {
        MessageType schema = footer.schema();
        String[] names = plan.hostSchema().fieldNames();
        List<List<ParquetHostModel.Kind>> kinds = new ArrayList<>(names.length);
        double[] stringBytes = new double[names.length];
        for (int i = 0; i < names.length; i++) {
            kinds.add(List.of(ParquetHostModel.kind(schema.getType(names[i]).asPrimitiveType())));
            stringBytes[i] = meanStringBytes(names[i], groups);
        }
        double aggregatePerRow = plan.aggregate() == null ? 0
                : ParquetHostModel.aggregateNsPerRow(plan.aggregate().keys().length);
        return rows -> {
            double cpu = 0;
            for (int i = 0; i < names.length; i++) {
                cpu += ParquetHostModel.decodeNs(kinds.get(i), rows, stringBytes[i]);
            }
            if (plan.aggregate() != null) {
                cpu += ParquetHostModel.aggregateNs(aggregatePerRow, rows, 0);
            }
            return cpu;
        };
    }

    /** The host's CPU for decoding {@code returned} rows the drive returned from
     *  {@code groups}. */
    static double returnedCpuNs(ParquetReadPlan plan, ParquetFooter footer,
                                List<BlockMetaData> groups, long returned) {
        return ParquetHostModel.decodeNs(returnedKinds(plan, footer), returned,
                meanStringBytes(plan, groups));
    }

    /** The rows a drive run returned to the host: rows, partial groups or top-n items. */
    static long returnedRows(ParquetReadPlan plan, ParquetDriveScan.Result r)
            throws IOException {
        if (plan.aggregate() != null || plan.topN() != null) {
            // each output's trailer-less items: priced as rows of the read schema
            long items = 0;
            for (byte[] o : r.outputs()) {
                items += plan.aggregate() != null
                        ? org.smartssd.device.tasklet.GroupAggregate.decode(o,
                        org.smartssd.device.tasklet.BuiltinTasklet.PARQUET_SCAN).items().size()
                        : org.smartssd.device.tasklet.TopN.decode(o,
                        org.smartssd.device.tasklet.BuiltinTasklet.PARQUET_SCAN).items().size();
            }
            return items;
        }
        return plan.nproj() == 0 ? 0 : r.rows().size();
    }

    /** How the values of a returned row are priced: the plan's columns, an aggregate's
     *  outputs as 8-byte values. */
    private static List<ParquetHostModel.Kind> returnedKinds(ParquetReadPlan plan,
                                                             ParquetFooter footer) {
        List<ParquetHostModel.Kind> k = new ArrayList<>();
        if (plan.aggregate() != null) {
            for (int i = 0; i < plan.aggregate().outputs().size(); i++) {
                k.add(ParquetHostModel.Kind.BIGINT);
            }
            return k;
        }
        for (String n : plan.required().fieldNames()) {
            k.add(ParquetHostModel.kind(footer.schema().getType(n).asPrimitiveType()));
        }
        return k;
    }

    /** The mean uncompressed length of the plan's string values (PLAIN: less the 4-byte
     *  length before each), over its string columns. */
    private static double meanStringBytes(ParquetReadPlan plan, List<BlockMetaData> groups) {
        double sum = 0;
        int n = 0;
        for (String c : plan.required().fieldNames()) {
            double m = meanStringBytes(c, groups);
            if (m > 0) {
                sum += m;
                n++;
            }
        }
        return n == 0 ? 0 : sum / n;
    }

    private static double meanStringBytes(String column, List<BlockMetaData> groups) {
        long bytes = 0;
        long values = 0;
        for (BlockMetaData g : groups) {
            for (ColumnChunkMetaData c : g.getColumns()) {
                if (c.getPath().toDotString().equals(column)
                        && c.getPrimitiveType().getPrimitiveTypeName()
                        == PrimitiveType.PrimitiveTypeName.BINARY) {
                    bytes += c.getTotalUncompressedSize();
                    values += c.getValueCount();
                }
            }
        }
        return values == 0 ? 0 : Math.max(0, (double) bytes / values - 4);
    }

    /** The footer as a reader fetches it: its length, its 4-byte length field and PAR1. */
    private static long footerBytes(DeviceAccess acc, Path file) throws IOException {
        long len = acc.stat().size();
        byte[] tail = new byte[8];
        try (FSDataInputStream in = acc.fs().open(file)) {
            in.readFully(len - 8, tail);
        }
        long footer = (tail[0] & 0xffL) | (tail[1] & 0xffL) << 8 | (tail[2] & 0xffL) << 16
                | (tail[3] & 0xffL) << 24;
        return footer + 8;
    }

    /** The link's time per byte: configured, else the drive's model over a chunk's read. */
    private static double linkNsPerByte(Configuration conf, DeviceAccess acc, Path file,
                                        List<ColumnChunkMetaData> chunks) throws IOException {
        String configured = conf.getTrimmed(Placement.LINK_NS_PER_BYTE, "");
        if (!configured.isEmpty()) {
            return Double.parseDouble(configured);
        }
        if (chunks.isEmpty()) {
            return SATA3_NS_PER_BYTE;
        }
        ColumnChunkMetaData c = chunks.get(0);
        byte[] sample = new byte[(int) Math.min(c.getTotalSize(), LINK_SAMPLE_BYTES)];
        Optional<ModelCounters> before = acc.device().modelCounters();
        try (FSDataInputStream in = acc.fs().open(file)) {
            in.readFully(c.getStartingPos(), sample);
        }
        Optional<ModelCounters> after = acc.device().modelCounters();
        if (before.isEmpty() || after.isEmpty()) {
            return SATA3_NS_PER_BYTE;
        }
        long bytes = (after.get().linkBytesIn() + after.get().linkBytesOut())
                - (before.get().linkBytesIn() + before.get().linkBytesOut());
        return bytes > 0 ? (after.get().linkBusyNs() - before.get().linkBusyNs())
                / (double) bytes : SATA3_NS_PER_BYTE;
    }
}
