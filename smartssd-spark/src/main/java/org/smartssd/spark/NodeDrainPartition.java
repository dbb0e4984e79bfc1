package org.smartssd.spark;

import java.util.List;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * A node's partitions in a scan placed {@code auto}: one task runs them all, the node's
 * drives and its host draining them at run time (smartssd-scan's {@code DrainScheduler}, as
 * a device job drains a node's splits). Each part keeps the planner's side and estimates;
 * their rows are combined as partitions' partial results are. Spark prefers the node.
 */
record NodeDrainPartition(int index, String node, List<SmartSsdPartition> parts)
        implements InputPartition {
    NodeDrainPartition {
        parts = List.copyOf(parts);
    }

    @Override
    public String[] preferredLocations() {
        return node.isEmpty() ? new String[0] : new String[] {node};
    }
}
