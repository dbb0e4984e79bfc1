package org.smartssd.spark;

import java.io.IOException;
import java.util.Iterator;
import java.util.UUID;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.smartssd.device.InputRange;
import org.smartssd.device.tasklet.BpfProgram;
import org.smartssd.scan.DeviceAccess;
import org.smartssd.scan.ScanConf;
import org.smartssd.scan.TaskletRun;

/**
 * One partition of a {@link ProgramScan}: the program's run over the partition's byte range
 * in the drive (create, execute, poll, read the output: {@link TaskletRun}), whose emitted
 * records are the partition's rows. A program not loaded on the partition's drive fails the
 * task with a {@link org.smartssd.device.TaskletFailedException} of failure
 * {@code PROGRAM_NOT_LOADED}, one that does not fit the layout with a
 * {@link org.smartssd.device.SmartSsdException} of reason {@code PROGRAM_REFUSED}.
 */
final class ProgramReader implements PartitionReader<InternalRow> {
    private final ProgramRead read;
    private final TableLayout layout;
    private final DriveConf conf;
    private final SmartSsdPartition part;
    private Iterator<InternalRow> rows;
    private InternalRow row;

    ProgramReader(ProgramRead read, TableLayout layout, DriveConf conf, SmartSsdPartition part) {
        this.read = read;
        this.layout = layout;
        this.conf = conf;
        this.part = part;
    }

    @Override
    public boolean next() throws IOException {
        if (rows == null) {
            rows = run().iterator();
        }
        if (!rows.hasNext()) {
            return false;
        }
        row = rows.next();
        return true;
    }

    private java.util.List<InternalRow> run() throws IOException {
        Configuration c = conf.hadoop();
        DeviceAccess file = DeviceAccess.of(new Path(part.path()), c);
        String out = ScanConf.scratchDir(c) + "/program-" + UUID.randomUUID() + ".out";
        byte[] output;
        try (TaskletRun run = TaskletRun.start(file.device(),
                read.program().spec(layout.recordLayout(), 0),
                new InputRange(file.stat().oid(), part.start(), part.length()), out,
                ScanConf.taskletTimeout(c), null)) {
            output = run.toEnd(ScanConf.taskletTimeout(c)).output();
        }
        return read.decode(BpfProgram.decode(output).emitted(), part.path() + " ["
                + part.start() + ", +" + part.length() + ")");
    }

    @Override
    public InternalRow get() {
        return row;
    }

    @Override
    public void close() {
        rows = null;
    }
}
