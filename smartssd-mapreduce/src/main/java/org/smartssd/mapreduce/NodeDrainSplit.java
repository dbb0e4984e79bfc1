package org.smartssd.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.smartssd.scan.DrainScheduler;

/**
 * A node's splits in a job placed {@code auto}: one map task runs them all, its drives and
 * its host draining them at run time ({@link DrainScheduler}, run by {@link DeviceMapRunner}
 * through smartssd-scan's ScanExecution). Each split keeps the planner's side and estimates
 * (the side is the plan made before the job, which the drain may change). Located on the node, so the task runs next to its drives.
 */
public class NodeDrainSplit extends InputSplit implements Writable {
    private String node = "";
    private List<PlacedSplit> splits = new ArrayList<>();

    /** For Hadoop's deserialisation. */
    public NodeDrainSplit() {
    }

    NodeDrainSplit(String node, List<PlacedSplit> splits) {
        this.node = node;
        this.splits = new ArrayList<>(splits);
    }

    public List<PlacedSplit> splits() {
        return splits;
    }

    @Override
    public long getLength() {
        long n = 0;
        for (PlacedSplit s : splits) {
            n += s.getLength();
        }
        return n;
    }

    @Override
    public String[] getLocations() {
        return node.isEmpty() ? new String[0] : new String[] {node};
    }

    @Override
    public void write(DataOutput out) throws IOException {
        Text.writeString(out, node);
        out.writeInt(splits.size());
        for (PlacedSplit s : splits) {
            s.write(out);
        }
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        node = Text.readString(in);
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("drain split of node " + node + ": " + n + " splits");
        }
        splits = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            PlacedSplit s = new PlacedSplit();
            s.readFields(in);
            splits.add(s);
        }
    }

    @Override
    public String toString() {
        return splits.size() + " splits drained on " + (node.isEmpty() ? "any node" : node);
    }
}
