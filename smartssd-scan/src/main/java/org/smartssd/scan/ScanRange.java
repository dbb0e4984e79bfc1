package org.smartssd.scan;

import org.apache.hadoop.fs.Path;

/**
 * A byte range of a file on a drive: the records whose first byte lies in it (the drive's
 * split rule), and the hosts of the file's drive, where the range is best read. A device
 * job's split and a Spark partition are each one.
 */
public record ScanRange(Path path, long start, long length, String[] hosts) {
    /** The drive's name: the authority of the file's URI. */
    public String drive() {
        return path.toUri().getAuthority();
    }

    /** The first of the hosts, "" for none. */
    public String node() {
        return hosts.length > 0 ? hosts[0] : "";
    }

    @Override
    public String toString() {
        return path + ":" + start + "+" + length;
    }
}
