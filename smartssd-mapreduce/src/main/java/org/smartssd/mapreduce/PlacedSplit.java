package org.smartssd.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.smartssd.scan.Placement;

/**
 * A device job's split with the side it runs on and the planner's estimates of both sides,
 * so the task (in whatever JVM) runs the planned version and reports the estimate beside the
 * modelled time ({@link PlacementCounters}).
 */
public class PlacedSplit extends FileSplit {
    private Placement side;
    private long deviceEstimateNs;
    private long hostEstimateNs;

    /** For Hadoop's deserialisation. */
    public PlacedSplit() {
    }

    PlacedSplit(FileSplit s, Placement side, long deviceEstimateNs, long hostEstimateNs)
            throws IOException {
        super(s.getPath(), s.getStart(), s.getLength(), s.getLocations());
        if (side == Placement.AUTO) {
            throw new IllegalArgumentException("a split runs on the device or the host");
        }
        this.side = side;
        this.deviceEstimateNs = deviceEstimateNs;
        this.hostEstimateNs = hostEstimateNs;
    }

    public Placement side() {
        return side;
    }

    public long deviceEstimateNs() {
        return deviceEstimateNs;
    }

    public long hostEstimateNs() {
        return hostEstimateNs;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        super.write(out);
        out.writeByte(side.ordinal());
        out.writeLong(deviceEstimateNs);
        out.writeLong(hostEstimateNs);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        super.readFields(in);
        int s = in.readByte();
        if (s != Placement.DEVICE.ordinal() && s != Placement.HOST.ordinal()) {
            throw new IOException("placed split of " + getPath() + ": side " + s
                    + " is neither device nor host");
        }
        side = Placement.values()[s];
        deviceEstimateNs = in.readLong();
        hostEstimateNs = in.readLong();
    }

    @Override
    public String toString() {
        return super.toString() + " on " + side.cliName() + " (estimated device "
                + deviceEstimateNs + " ns, host " + hostEstimateNs + " ns)";
    }
}
