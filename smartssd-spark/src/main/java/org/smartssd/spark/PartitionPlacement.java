package org.smartssd.spark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.tasklet.HostTasklet;
import org.smartssd.device.tasklet.SplitRecords;
import org.smartssd.mapreduce.DriveQueue;
import org.smartssd.mapreduce.Placement;
import org.smartssd.mapreduce.PlacementCalibration;
import org.smartssd.mapreduce.SplitPlanner;

/**
 * Where each partition's pushed work runs, decided on the driver as a device job decides it
 * for its splits (smartssd-mapreduce's {@link Placement}): each drive calibrated once on its
 * first non-empty partition ({@link PlacementCalibration}: the tasklet's counted work per
 * page priced by the drive's profile, the link's rate, the host version's measured rate,
 * here {@link HostTasklet}), both versions estimated per partition, and the drive and the host
 * draining the one queue of partitions ({@link SplitPlanner}). A plain record read (nothing
 * pushed) is not placed: it runs on the host already.
 */
final class PartitionPlacement {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(
            PartitionPlacement.class);

    private PartitionPlacement() {
    }

    static List<SmartSsdPartition> place(ScanPlan plan, List<SmartSsdPartition> parts)
            throws IOException {
        if (plan.placement() == null || plan.mode() == ScanPlan.Mode.READ) {
            return parts;
        }
        Configuration conf = plan.conf().hadoop();
        TaskletSpec spec = plan.spec();
        PlacementCalibration.HostOperator host = hostOperator(spec);
        Map<String, PlacementCalibration> cal = new LinkedHashMap<>();
        Map<String, Long> queues = new HashMap<>();
        List<SplitPlanner.Estimate> est = new ArrayList<>();
        for (SmartSsdPartition p : parts) {
            Path path = new Path(p.path());
            String drive = path.toUri().getAuthority();
            if (p.length() == 0) {
                est.add(new SplitPlanner.Estimate(drive, "", 0, 0, 0));
                continue;
            }
            FileSplit s = new FileSplit(path, p.start(), p.length(), p.hosts());
            PlacementCalibration c = cal.get(drive);
            if (c == null) {
                c = PlacementCalibration.probe(conf, spec, s, host);
                cal.put(drive, c);
                queues.put(drive, DriveQueue.pendingNs(drive));
            }
            String node = p.hosts().length > 0 ? p.hosts()[0] : "";
            est.add(new SplitPlanner.Estimate(drive, node, c.deviceNs(s), c.hostNs(s),
                    p.length()));
        }
        List<Placement> sides = SplitPlanner.plan(est, plan.placement(), queues);
        List<SmartSsdPartition> out = new ArrayList<>();
        long[] n = new long[2];
        long[] ns = new long[2];
        for (int i = 0; i < parts.size(); i++) {
            SmartSsdPartition p = parts.get(i);
            SplitPlanner.Estimate e = est.get(i);
            // an empty range runs nothing on either side
            Placement side = e.length() == 0 ? Placement.DEVICE : sides.get(i);
            String drive = new Path(p.path()).toUri().getAuthority();
            out.add(p.placed(side, e.deviceNs(), e.hostNs(), cal.get(drive)));
            int k = side == Placement.DEVICE ? 0 : 1;
            n[k]++;
            ns[k] += k == 0 ? e.deviceNs() : e.hostNs();
        }
        LOG.info("placement {}: {} partitions on the device (estimated {} ns), {} on the host "
                + "(estimated {} ns); drive queues {} ns; {}", plan.placement().cliName(), n[0],
                ns[0], n[1], ns[1], queues, cal);
        return out;
    }

    /** The host version over a calibration sample: the tasklet's work, output discarded. */
    static PlacementCalibration.HostOperator hostOperator(TaskletSpec spec) {
        RecordLayout layout = spec.layout();
        String name = "smartssd-spark/" + spec.taskletId() + "/" + layout + "/"
                + Arrays.hashCode(spec.params());
        return new PlacementCalibration.HostOperator() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void run(byte[] sample) throws IOException {
                HostTasklet h = HostTasklet.of(spec);
                SplitRecords.cut(layout, sample.length, 0, sample.length,
                        (pos, b, off, len) -> {
                            int k = (int) Math.min(len, sample.length - pos);
                            if (k <= 0) {
                                return -1;
                            }
                            System.arraycopy(sample, (int) pos, b, off, k);
                            return k;
                        }, h::accept);
                h.finish();
            }
        };
    }
}
