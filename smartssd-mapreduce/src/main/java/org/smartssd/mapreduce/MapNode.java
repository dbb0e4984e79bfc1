package org.smartssd.mapreduce;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * A device map runs on the node of its split's drive, or fails at once. A drive is reached
 * only from its node (a daemon's socket, a SATA device), so a map placed elsewhere, as the
 * MapReduce AM places one in a surplus container it was given on another node (YARN-1902),
 * would reach no drive, or another node's drive under the same socket path, and fail late.
 * It fails before any drive command, naming the node it ran on and the drive and host its
 * split belongs to, so the AM retries it at once.
 *
 * <p>{@value #CHECK}: {@code auto} (default) checks in a YARN container, whose node is the
 * NodeManager's host ({@code NM_HOST}); the LocalJobRunner has no nodes, every drive is in
 * its process's reach. {@code always} checks there too, against this host's name;
 * {@code never} does not check.
 */
final class MapNode {
    static final String CHECK = "smartssd.mapreduce.node.check";
    /** The environment variable YARN sets in a container: its NodeManager's host. */
    static final String NM_HOST = "NM_HOST";

    private MapNode() {
    }

    /** Fails when the task runs on a node none of a split's locations names. */
    static void require(Configuration conf, List<? extends FileSplit> splits,
                        Map<String, String> env) throws IOException {
        String node = node(conf, env);
        if (node == null) {
            return;
        }
        for (FileSplit s : splits) {
            String drive = s.getPath().toUri().getAuthority();
            String[] hosts = hosts(conf, drive, s);
            if (hosts.length == 0 || named(node, hosts)) {
                continue;
            }
            throw new IOException("device map of " + s.getPath() + ":" + s.getStart() + "+"
                    + s.getLength() + " runs on node " + node + ", but its drive '" + drive
                    + "' is on " + String.join(", ", hosts) + " (smartssd.device." + drive
                    + ".host): a drive is reached only from its node. The map was placed off "
                    + "its node, as the MapReduce AM places one in a surplus container "
                    + "(YARN-1902); it failed before any drive command so that it is retried "
                    + "at once. " + CHECK + "=never turns this check off.");
        }
    }

    /**
     * The hosts of a split's drive: {@code smartssd.device.DRIVE.host}, which the split's
     * locations were made from (a plain FileSplit's locations do not reach the task); else
     * the split's own (a node's drain split carries its node); none: not checked (a drive
     * with no host set is on whichever host resolves it).
     */
    private static String[] hosts(Configuration conf, String drive, FileSplit s)
            throws IOException {
        String host = drive == null ? null
                : conf.getTrimmed("smartssd.device." + drive + ".host");
        return host != null && !host.isEmpty() ? new String[] {host} : s.getLocations();
    }

    /** The node this task runs on, or null when it is not checked. */
    static String node(Configuration conf, Map<String, String> env) throws IOException {
        String mode = conf.getTrimmed(CHECK, "auto").toLowerCase(Locale.ROOT);
        String nm = env.get(NM_HOST);
        switch (mode) {
            case "never":
                return null;
            case "auto":
                return nm == null || nm.isEmpty() ? null : nm;
            case "always":
                return nm == null || nm.isEmpty() ? localHostName() : nm;
            default:
                throw new IOException(CHECK + " must be auto, always or never, got '" + mode
                        + "'");
        }
    }

    private static boolean named(String node, String[] hosts) {
        for (String h : hosts) {
            if (h.equalsIgnoreCase(node)) {
                return true;
            }
        }
        return false;
    }

    private static String localHostName() throws IOException {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            throw new IOException(CHECK + "=always: this host has no name to check a split's "
                    + "location against", e);
        }
    }
}
