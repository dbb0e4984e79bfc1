package org.smartssd.loganalyzer.host;

import java.io.IOException;

import org.apache.hadoop.io.BytesWritable;
import org.smartssd.loganalyzer.WorldCupRecord;

/** The two fields the queries read, straight from an entry's bytes. */
final class Entries {
    private Entries() {
    }

    static int region(BytesWritable entry) throws IOException {
        check(entry);
        return (entry.getBytes()[WorldCupRecord.OFF_SERVER] & 0xff) >>> 5;
    }

    static int type(BytesWritable entry) throws IOException {
        check(entry);
        return entry.getBytes()[WorldCupRecord.OFF_TYPE] & 0xff;
    }

    private static void check(BytesWritable entry) throws IOException {
        if (entry.getLength() < WorldCupRecord.BYTES) {
            throw new IOException("an entry of " + entry.getLength() + " bytes is shorter than a "
                    + WorldCupRecord.BYTES + "-byte WorldCup98 record");
        }
    }
}
