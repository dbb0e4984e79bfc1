package org.smartssd.scan.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.smartssd.device.InputRange;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TaskletFailedException;
import org.smartssd.device.tasklet.BuiltinTasklet;
import org.smartssd.device.tasklet.ParquetScan;
import org.smartssd.device.tasklet.Trailer;
import org.smartssd.scan.DeviceAccess;
import org.smartssd.scan.TaskletRun;

/**
 * Runs a parquet-scan plan over a {@code smartssd://} file in its drive, a run per plan
 * part ({@link ParquetScanPlan#encode}), and decodes what ROWS and COUNT return. A run the
 * drive refuses as {@code INPUT_UNSUPPORTED} (a page the footer did not reveal, such as
 * pyarrow's v2 data pages) is reported as such: the caller reads the file on the host.
 */
public final class ParquetDriveScan {
    /** What the drive returned: projected rows (ROWS) or the match count (COUNT). */
    public record Result(List<Object[]> rows, long matches, long rowsDecoded, int runs) {
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
     * Runs {@code plan} over the row groups {@code parts} cover. ROWS' limit is the plan's
     * per run; the rows are cut to it here.
     */
    public static Result run(DeviceAccess file, ParquetScanPlan plan, List<byte[]> parts,
                             long limit, int memoryBudget, Duration timeout) throws IOException {
        List<Object[]> rows = new ArrayList<>();
        long matches = 0;
        long decoded = 0;
        for (byte[] p : parts) {
            if (limit > 0 && (plan.mode() == ParquetScanPlan.Mode.ROWS ? rows.size()
                    : matches) >= limit) {
                break;
            }
            byte[] out = runOne(file, p, memoryBudget, timeout);
            Trailer t = Trailer.of(out, BuiltinTasklet.PARQUET_SCAN);
            decoded += t.recordsIn();
            if (plan.mode() == ParquetScanPlan.Mode.ROWS) {
                decodeRows(plan, ByteBuffer.wrap(out, 0, out.length - Trailer.BYTES)
                        .order(ByteOrder.LITTLE_ENDIAN), rows);
            } else if (plan.mode() == ParquetScanPlan.Mode.COUNT) {
                matches += t.aux();
            } else {
                throw new IllegalArgumentException(plan.mode() + " plans are not decoded here");
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
        return new Result(rows, matches, decoded, parts.size());
    }

    private static byte[] runOne(DeviceAccess file, byte[] plan, int memoryBudget,
                                 Duration timeout) throws IOException {
        SmartSsdDevice dev = file.device();
        String output = "/.smartssd/parquet-scan/" + UUID.randomUUID();
        TaskletRun started;
        try {
            started = TaskletRun.start(dev, ParquetScan.spec(plan, memoryBudget),
                    new InputRange(file.stat().oid(), 0, InputRange.TO_END), output, timeout,
                    null);
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
        int[] proj = plan.projection();
        int bitmap = (proj.length + 7) / 8;
        while (b.hasRemaining()) {
            int at = b.position();
            Object[] row = new Object[proj.length];
            b.position(at + bitmap);
            for (int j = 0; j < proj.length; j++) {
                if ((b.get(at + j / 8) & (1 << (j % 8))) != 0) {
                    continue;
                }
                DriveColumn c = plan.columns().get(proj[j]);
                if (c.type() == 6) {
                    byte[] s = new byte[b.getInt()];
                    b.get(s);
                    row[j] = s;
                } else {
                    row[j] = value(c, b.getLong());
                }
            }
            rows.add(row);
        }
    }

    /**
     * A number as the drive returns it, as Java holds it: BOOLEAN a Boolean, FLOAT and
     * DOUBLE from their order keys, the rest a Long (DATE days, TIMESTAMP microseconds,
     * DECIMAL the unscaled value).
     */
    static Object value(DriveColumn c, long v) {
        return switch (c.type()) {
            case 0 -> v != 0;
            case 4 -> {
                int bits = (int) v;
                yield Float.intBitsToFloat(bits < 0 ? bits ^ Integer.MAX_VALUE : bits);
            }
            case 5 -> Double.longBitsToDouble(v < 0 ? v ^ Long.MAX_VALUE : v);
            default -> v;
        };
    }
}
