package org.smartssd.mapreduce;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.smartssd.device.InputRange;
import org.smartssd.device.ObjectStat;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletState;
import org.smartssd.device.tasklet.DramProbe;

/**
 * The other JVM of {@link OtherJvmQueueTest}: on the drive served at args[0], starts a long
 * dram-probe run over the file args[1] ({@code accesses} args[2] a page), prints
 * "RUNNING pages" once the run has done its first pages (polling its progress), waits for a line on stdin, prints "STILL true|false" (whether its run was
 * still going then), destroys the run and prints "DONE".
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
            // part way before the word: its counted work then prices its pages left
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            TaskletProgress p = dev.poll(inst);
            while (p.pagesDone() == 0 && p.state() == TaskletState.RUNNING) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("the run did no page in 120 s");
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                p = dev.poll(inst);
            }
            System.out.println("RUNNING " + p.pagesTotal());
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                    .readLine();
            System.out.println("STILL " + (dev.poll(inst).state() == TaskletState.RUNNING));
            dev.destroy(inst);
        }
        System.out.println("DONE");
    }
}
