package org.smartssd.scan.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.smartssd.device.InputRange;
import org.smartssd.device.ModelCounters;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TaskletFailedException;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.tasklet.BuiltinTasklet;
import org.smartssd.device.tasklet.ParquetScan;
import org.smartssd.device.tasklet.Trailer;
import org.smartssd.scan.DeviceAccess;
import org.smartssd.scan.TaskletRun;

/**
 * Runs a parquet-scan plan over a {@code smartssd://} file in its drive, a run per plan
 * part ({@link ParquetScanPlan#runs}) over the byte ranges of its column chunks only
 * ({@link ParquetScanPlan#chunkRanges}), and decodes what ROWS and COUNT return. A run the
 * drive refuses as {@code INPUT_UNSUPPORTED} (a page the footer did not reveal, such as
 * pyarrow's v2 data pages) is reported as such: the caller reads the file on the host.
 */
public final class ParquetDriveScan {
    /**
     * What the drive returned: projected rows (ROWS), the match count (COUNT), or each run's
     * output as written (AGGREGATE, TOPN: group-aggregate's and top-n's items, decoded by
     * their {@code decode(output, PARQUET_SCAN)}), and the runs' counted work as the drive
     * reported it (pages, ISP instructions, DRAM accesses, output bytes), which a profile's
     * prices make modelled time ({@link Work#ispNs}).
     */
    public record Result(List<Object[]> rows, long matches, long rowsDecoded, int runs,
                         List<byte[]> outputs, Work work) {
    }

    /** The counted work of parquet-scan runs, summed over them. */
    public record Work(long pages, long instructions, long dramAccesses, long outputBytes) {
        Work plus(TaskletProgress p, long output) {
            return new Work(pages + p.pagesDone(), instructions + p.instructions(),
                    dramAccesses + p.dramAccesses(), outputBytes + output);
        }

        /** The ISP core's modelled time of this work under {@code prices} (the drive's
         *  model: pages x firmware overhead + instructions + DRAM accesses). */
        public double ispNs(ModelCounters.WorkPrices prices) {
            return pages * (double) prices.fwPageOverheadNs()
                    + instructions * prices.ispPsPerInstruction() / 1000.0
                    + dramAccesses * (double) prices.dramAccessNs();
        }
    }

    /**
     * The drive cannot decode something in the file, or has no room for the row group: read
     * it on the host, for this reason.
     */
    public static final class Unsupported extends IOException {
        Unsupported(String reason, Throwable cause) {
            super(reason, cause);
        }
    }

    private ParquetDriveScan() {
    }

    /**
     * Runs {@code plan} over {@code rowGroups} of {@code footer}'s file. ROWS' limit is the
     * plan's per run; the rows are cut to it here.
     */
    public static Result run(DeviceAccess file, ParquetScanPlan plan, ParquetFooter footer,
                             List<BlockMetaData> rowGroups, long limit, int memoryBudget,
                             Duration timeout) throws IOException {
        List<Object[]> rows = new ArrayList<>();
        List<byte[]> outputs = new ArrayList<>();
        long matches = 0;
        long decoded = 0;
        Work work = new Work(0, 0, 0, 0);
        List<List<BlockMetaData>> parts = plan.runs(rowGroups);
        for (List<BlockMetaData> groups : parts) {
            if (limit > 0 && (plan.mode() == ParquetScanPlan.Mode.ROWS ? rows.size()
                    : matches) >= limit) {
                break;
            }
            TaskletProgress[] done = new TaskletProgress[1];
            byte[] out = runOne(file, plan.encode(footer, groups).get(0),
                    plan.chunkRanges(groups), memoryBudget, timeout, done);
            work = work.plus(done[0], out.length);
            Trailer t = Trailer.of(out, BuiltinTasklet.PARQUET_SCAN);
            decoded += t.recordsIn();
            if (plan.mode() == ParquetScanPlan.Mode.ROWS) {
                decodeRows(plan, ByteBuffer.wrap(out, 0, out.length - Trailer.BYTES)
                        .order(ByteOrder.LITTLE_ENDIAN), rows);
            } else if (plan.mode() == ParquetScanPlan.Mode.COUNT) {
                matches += t.aux();
            } else {
                outputs.add(out);
            }
        }
        if (plan.mode() == ParquetScanPlan.Mode.ROWS) {
            if (limit > 0 && rows.size() > limit) {
                rows = new ArrayList<>(rows.subList(0, (int) limit));
            }
            matches = rows.size();
        } else if (limit > 0) {
            matches = Math.min(matches, limit);
        }
        return new Result(rows, matches, decoded, parts.size(), outputs, work);
    }

    private static byte[] runOne(DeviceAccess file, byte[] plan, List<long[]> chunks,
                                 int memoryBudget, Duration timeout, TaskletProgress[] done)
            throws IOException {
        SmartSsdDevice dev = file.device();
        long oid = file.stat().oid();
        // parquet-scan is handed whole pages, those that start inside a range: each range
        // from the page holding its first byte, to the end of the page holding its last
        long ps = dev.info().pageSize();
        List<InputRange> ranges = new ArrayList<>(chunks.size());
        long from = -1;
        long to = -1;
        for (long[] k : chunks) {
            long s = k[0] / ps * ps;
            long e = (k[0] + k[1] + ps - 1) / ps * ps;
            if (from >= 0 && s <= to) {
                to = Math.max(to, e);
                continue;
            }
            if (from >= 0) {
                ranges.add(new InputRange(oid, from, to - from));
            }
            from = s;
            to = e;
        }
        if (from >= 0) {
            ranges.add(new InputRange(oid, from, to - from));
        }
        String output = "/.smartssd/parquet-scan/" + UUID.randomUUID();
        TaskletRun started;
        try {
            started = TaskletRun.start(dev, ParquetScan.spec(plan, memoryBudget), ranges, output,
                    timeout, null);
        } catch (TaskletFailedException e) {
            // the drive holds a run's row group whole: one larger than its free memory (or
            // than all of it) cannot run there now
            if (e.failure() == TaskletFailedException.Failure.BUDGET) {
                throw new Unsupported("the drive has no room for the scan's " + memoryBudget
                        + "-byte memory budget: " + e.getMessage(), e);
            }
            if (e.failure() == TaskletFailedException.Failure.INPUT_UNSUPPORTED) {
                throw new Unsupported("the drive refused a page: " + e.getMessage(), e);
            }
            throw e;
        }
        try (TaskletRun run = started) {
            run.toEnd(timeout);
            done[0] = run.last();
            return run.output();
        } catch (TaskletFailedException e) {
            if (e.failure() == TaskletFailedException.Failure.INPUT_UNSUPPORTED) {
                throw new Unsupported("the drive refused a page: " + e.getMessage(), e);
            }
            throw e;
        }
    }

    /** ROWS' encoding: a NULL bitmap, then each non-NULL projected value. */
    private static void decodeRows(ParquetScanPlan plan, ByteBuffer b, List<Object[]> rows) {
        while (b.hasRemaining()) {
            rows.add(decodeRow(plan, b));
        }
    }

    /**
     * One row in ROWS' encoding (a TOPN item's payload too) at {@code b}'s position, which
     * moves past it: the projected columns' values as {@link #value} gives them, null where
     * NULL, a BYTE_ARRAY as its bytes.
     */
    public static Object[] decodeRow(ParquetScanPlan plan, ByteBuffer b) {
        b.order(ByteOrder.LITTLE_ENDIAN);
        int[] proj = plan.projection();
        int bitmap = (proj.length + 7) / 8;
        int at = b.position();
        Object[] row = new Object[proj.length];
        b.position(at + bitmap);
        for (int j = 0; j < proj.length; j++) {
            if ((b.get(at + j / 8) & (1 << (j % 8))) != 0) {
                continue;
            }
            DriveColumn c = plan.columns().get(proj[j]);
            if (c.type() == DriveColumn.T_BYTE_ARRAY) {
                byte[] s = new byte[b.getInt()];
                b.get(s);
                row[j] = s;
            } else {
                row[j] = value(c, b.getLong());
            }
        }
        return row;
    }

    /**
     * A number as the drive returns it, as Java holds it: BOOLEAN a Boolean, FLOAT and
     * DOUBLE from their order keys, the rest a Long (DATE days, TIMESTAMP microseconds,
     * DECIMAL the unscaled value).
     */
    public static Object value(DriveColumn c, long v) {
        return switch (c.type()) {
            case DriveColumn.T_BOOLEAN -> v != 0;
            case DriveColumn.T_FLOAT -> {
                int bits = (int) v;
                yield Float.intBitsToFloat(bits < 0 ? bits ^ Integer.MAX_VALUE : bits);
            }
            case DriveColumn.T_DOUBLE -> Double.longBitsToDouble(v < 0 ? v ^ Long.MAX_VALUE : v);
            default -> v;
        };
    }
}
