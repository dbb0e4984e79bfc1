package org.smartssd.mapreduce;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.smartssd.device.InputRange;
import org.smartssd.device.ObjectStat;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.tasklet.DramProbe;

/**
 * The other JVM of {@link OtherJvmQueueTest}: on the drive served at args[0] (a daemon whose
 * background never runs), executes a dram-probe run over the file args[1] ({@code accesses}
 * args[2] a page), prints "QUEUED P pages, D done" (its progress right after the EXECUTE was
 * acknowledged), waits for a line on stdin, destroys the run and prints "DONE".
 */
public final class BusyDrivePeer {
    private BusyDrivePeer() {
    }

    public static void main(String[] args) throws IOException {
        try (SmartSsdDevice dev = SmartSsdDevice.open(args[0])) {
            ObjectStat in = dev.lookup(args[1]);
            long out = dev.createOutput("/peer/busy.out", SmartSsdDevice.CreateOption.PARENTS);
            long inst = dev.createTasklet(new DramProbe(Long.parseLong(args[2]), 7)
                    .spec(RecordLayout.fixed(8192, List.of()), 4096, 0), out);
            dev.execute(inst, List.of(new InputRange(in.oid(), 0, in.size())));
            TaskletProgress p = dev.poll(inst);
            System.out.println("QUEUED " + p.pagesTotal() + " pages, " + p.pagesDone() + " done");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                    .readLine();
            dev.destroy(inst);
        }
        System.out.println("DONE");
    }
}
