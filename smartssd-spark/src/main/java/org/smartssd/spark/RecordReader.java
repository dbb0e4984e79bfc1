package org.smartssd.spark;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.smartssd.device.EnergyAccountant;
import org.smartssd.device.EnergyReport;
import org.smartssd.device.ModelCounters;
import org.smartssd.fs.DriveLog;
import org.smartssd.spark.TableLayout.Column;

/**
 * A partition read without tasklets: its whole records cross the link in batches of about
 * 1 MiB and are decoded here as rows, only the required columns ({@link ColumnarReader}
 * decodes the same batches into columns). A pushed limit stops the read.
 */
final class RecordReader implements PartitionReader<InternalRow> {
    private static final int BATCH_BYTES = 1 << 20;

    private final ScanPlan plan;
    private final SmartSsdPartition part;
    private final int rs;
    private final Column[] cols;
    private long next;
    private long end;
    private FSDataInputStream in;
    private EnergyAccountant.Measurement energy;
    private byte[] batch;
    private int batchRecords;
    private int at;
    private long bytesRead;
    private long returned;
    private EnergyReport report;
    private org.smartssd.device.SmartSsdDevice device;
    private ModelCounters startCounters;
    private long deviceTimeNs;
    private GenericInternalRow row;

    RecordReader(ScanPlan plan, SmartSsdPartition part) {
        this.plan = plan;
        this.part = part;
        this.rs = plan.layout().recordSize();
        this.cols = new Column[plan.columns().length];
        for (int i = 0; i < cols.length; i++) {
            cols[i] = plan.layout().columns().get(plan.columns()[i]);
        }
    }

    private void open() throws IOException {
        DriveTarget t = DriveTarget.of(plan, part);
        in = t.fs().open(t.path());
        device = t.device();
        startCounters = device.modelCounters().orElse(null);
        energy = begin(device, t.accountant());
        next = part.firstRecord(rs);
        end = part.endRecord(rs);
        batch = new byte[recordsPerBatch(rs) * rs];
    }

    private static EnergyAccountant.Measurement begin(org.smartssd.device.SmartSsdDevice device,
                                                      EnergyAccountant a) {
        try {
            return a.begin();
        } catch (IOException e) {
            DriveLog.of(RecordReader.class, device.uri()).warn(
                    "energy accounting unavailable for this read: {}", e.toString());
            return null;
        }
    }

    @Override
    public boolean next() throws IOException {
        if (at >= batchRecords) {
            batchRecords = nextBatch();
            at = 0;
            if (batchRecords == 0) {
                return false;
            }
        }
        int off = at++ * rs;
        Object[] v = new Object[cols.length];
        for (int i = 0; i < cols.length; i++) {
            v[i] = Values.fromRecord(cols[i], batch, off);
        }
        row = new GenericInternalRow(v);
        return true;
    }

    /** Whole records per batch: about 1 MiB of them. */
    static int recordsPerBatch(int recordSize) {
        return Math.max(1, BATCH_BYTES / recordSize);
    }

    /**
     * Reads the next batch of whole records into {@link #batch()} (from offset 0), no more
     * than a pushed limit still allows. Returns how many; 0 at the end.
     */
    int nextBatch() throws IOException {
        if (in == null) {
            open();
        }
        long left = plan.limit() >= 0 ? plan.limit() - returned : Long.MAX_VALUE;
        if (left <= 0 || next >= end) {
            finish();
            return 0;
        }
        int n = (int) Math.min(Math.min(end - next, batch.length / rs), left);
        try {
            in.readFully(next * rs, batch, 0, n * rs);
        } catch (EOFException e) {
            throw new IOException(part.path() + " ends before record " + (next + n), e);
        }
        bytesRead += (long) n * rs;
        next += n;
        returned += n;
        return n;
    }

    byte[] batch() {
        return batch;
    }

    /** Ends the energy measurement: Spark reads the metrics once the rows run out. */
    private void finish() throws IOException {
        if (startCounters != null) {
            // reads do not move the drive's clock in virtual time; the link is busy meanwhile
            ModelCounters end = device.modelCounters().orElse(startCounters);
            deviceTimeNs = Math.max(end.nowNs() - startCounters.nowNs(),
                    end.linkBusyNs() - startCounters.linkBusyNs());
            startCounters = null;
        }
        if (energy != null) {
            try {
                report = energy.end();
            } catch (IOException | UncheckedIOException e) {
                DriveLog.of(RecordReader.class, device.uri()).warn(
                        "energy accounting unavailable for this read: {}", e.toString());
                report = null;
            }
            energy = null;
        }
    }

    @Override
    public InternalRow get() {
        return row;
    }

    @Override
    public CustomTaskMetric[] currentMetricsValues() {
        EnergyReport r = report;
        return new CustomTaskMetric[] {
            DriveMetrics.value(DriveMetrics.SCANNED, 0),
            DriveMetrics.value(DriveMetrics.LINK, bytesRead),
            DriveMetrics.value(DriveMetrics.TIME, deviceTimeNs),
            DriveMetrics.value(DriveMetrics.ENERGY, r == null || Double.isNaN(r.deviceJoules())
                    ? 0 : Math.round(r.deviceJoules() * 1e9)),
        };
    }

    @Override
    public void close() throws IOException {
        if (in != null) {
            in.close();
        }
    }
}
