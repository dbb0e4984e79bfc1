package org.smartssd.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.smartssd.device.ModelCounters;
import org.smartssd.fs.SmartSsdFileSystem;
import org.smartssd.loganalyzer.Query;
import org.smartssd.loganalyzer.TraceGenerator;
import org.smartssd.loganalyzer.device.DeviceQueryJob;
import org.smartssd.loganalyzer.model.HostCostModel;
import org.smartssd.mapreduce.AggregateReducer;
import org.smartssd.mapreduce.AggregateFormat;
import org.smartssd.mapreduce.AggregateWritable;
import org.smartssd.mapreduce.DeviceJob;
import org.smartssd.mapreduce.LongPairWritable;

/**
 * Scale of the device version of Q1 at 256 B (issue 14): the same trace cut across 1, 2, 4
 * and 8 emulated kang-smartssd drives of one node, and across 1 to 3 nodes of 2 drives, each
 * run a real {@link DeviceJob} (LocalJobRunner, one map slot per drive) whose answer must
 * equal the one-drive answer.
 *
 * <p>Modelled job time = the slowest drive's modelled busy time (each drive's own clock,
 * {@code ModelCounters.nowNs} after the job minus {@code hostNowNs} before it: its scans,
 * tasklet work and link transfers, from when the job's first command arrives) + the host merge of the map outputs ({@link HostCostModel#MAP_OUTPUT_NS_PER_RECORD}
 * per record) + for several nodes the outputs over the network at
 * {@value #NETWORK_BYTES_PER_S} B/s (10 GbE, an assumption, not measured). Drives run
 * concurrently in the model because each has its own controller and link; nothing in the
 * device version is shared but the merge. Strong scaling efficiency = T(1) / (N x T(N)).
 * Wall clock is measured, but every emulated drive runs on this machine's cores, so it shows
 * the emulator's cost, not the cluster's.
 *
 * <p>Also printed: the host-optimized version's limits from the same model (each drive's
 * link at 300 MB/s against the host CPU's per-byte cost), and a projection to 100 nodes x 8
 * drives from the measured one-drive rate: a projection, not a measurement.
 */
public final class ScaleBenchmark {
    static final int ENTRY = 256;
    static final double NETWORK_BYTES_PER_S = 1.25e9;
    /** kang-smartssd's host link (firmware-tasklets/emu/profiles/kang-smartssd.profile). */
    static final double LINK_BYTES_PER_S = 300e6;

    record Run(String label, int nodes, int drivesPerNode, long[] driveNs, long mapOutputs,
               long outputBytes, long wallNs, long[] answer) {
        int drives() {
            return nodes * drivesPerNode;
        }

        long slowestDriveNs() {
            return Arrays.stream(driveNs).max().orElse(0);
        }

        double modelledNs() {
            double merge = mapOutputs * HostCostModel.MAP_OUTPUT_NS_PER_RECORD;
            double network = nodes > 1 ? outputBytes * (nodes - 1.0) / nodes
                    / NETWORK_BYTES_PER_S * 1e9 : 0;
            return slowestDriveNs() + merge + network;
        }
    }

    private static int RUNS;

    private ScaleBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        long entries = 200_000;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--entries")) {
                entries = Long.parseLong(args[++i]);
            } else {
                System.err.println("usage: ScaleBenchmark [--entries N]");
                System.exit(2);
            }
        }
        Path work = Files.createTempDirectory("smartssd-scale");
        TraceGenerator gen = new TraceGenerator(TraceGenerator.Options.of(entries, 7, ENTRY));
        ByteArrayOutputStream trace = new ByteArrayOutputStream((int) gen.totalBytes());
        gen.write(trace, n -> { });
        byte[] all = trace.toByteArray();
        System.out.printf("Q1 at %d B: %,d entries, %,d bytes; kang-smartssd drives%n", ENTRY,
                entries, all.length);

        run(work, all, 1, 1, "warm-up (JIT; not reported)");
        List<Run> runs = new ArrayList<>();
        for (int d : new int[] {1, 2, 4, 8}) {
            runs.add(run(work, all, 1, d, "1 node x " + d));
        }
        for (int n : new int[] {2, 3}) {
            runs.add(run(work, all, n, 2, n + " nodes x 2"));
        }
        Run one = runs.get(0);
        System.out.println();
        System.out.println("| drives | nodes x drives | slowest drive (modelled ms) | job (modelled ms)"
                + " | speed-up | scaling efficiency | wall s |");
        System.out.println("|---:|---|---:|---:|---:|---:|---:|");
        for (Run r : runs) {
            if (!Arrays.equals(r.answer(), one.answer())) {
                throw new IllegalStateException(r.label() + " answered "
                        + Arrays.toString(r.answer()) + ", one drive "
                        + Arrays.toString(one.answer()));
            }
            double speedup = one.modelledNs() / r.modelledNs();
            System.out.printf("| %d | %s | %.2f | %.2f | %.2f | %.1f %% | %.1f |%n", r.drives(),
                    r.label(), r.slowestDriveNs() / 1e6, r.modelledNs() / 1e6, speedup,
                    100 * speedup / r.drives(), r.wallNs() / 1e9);
        }
        System.out.println("Answers equal in every configuration: " + Arrays.toString(
                one.answer()));

        // host-optimized: every byte crosses its drive's link and the host's CPU
        double cpuNsPerByte = HostCostModel.IO_NS_PER_BYTE
                + HostCostModel.nsPerRecord(Query.Q1) / ENTRY;
        double perCore = 1e9 / cpuNsPerByte;
        System.out.printf("%nHost-optimized Q1 limits (model): links %d x %.0f MB/s, host CPU "
                + "%.0f MB/s per core (%.2f ns/B: HostCostModel I/O + Q1 per record)%n",
                8, LINK_BYTES_PER_S / 1e6, perCore / 1e6, cpuNsPerByte);
        for (int cores : new int[] {2, 4, 8}) {
            double drivesAtCpuLimit = cores * perCore / LINK_BYTES_PER_S;
            System.out.printf("  %d cores: the CPU (%.0f MB/s) becomes the limit past %.1f "
                    + "drives%n", cores, cores * perCore / 1e6, drivesAtCpuLimit);
        }

        // projection: 100 nodes x 8 drives, each drive holding Kang's full 256 B trace
        double bytesPerDrive = 7_000_000.0 * ENTRY;
        double nsPerByte = (double) one.slowestDriveNs() / all.length;
        double groupsPerDrive = (double) one.mapOutputs();
        int nodes = 100;
        int drives = 8;
        double driveNs = bytesPerDrive * nsPerByte;
        double mergeNs = nodes * drives * groupsPerDrive * HostCostModel.MAP_OUTPUT_NS_PER_RECORD;
        double netNs = nodes * drives * (double) one.outputBytes() / NETWORK_BYTES_PER_S * 1e9;
        System.out.printf("%nPROJECTION (not a measurement), 100 nodes x 8 drives, %.2f GB per "
                + "drive (%.2f TB in all), from the one-drive run's modelled %.3f ns/B: drives "
                + "%.2f s, merge %.3f s, outputs over the network %.4f s; job %.2f s against "
                + "%.0f s on one drive: efficiency %.1f %%%n", bytesPerDrive / 1e9,
                bytesPerDrive * nodes * drives / 1e12, nsPerByte, driveNs / 1e9, mergeNs / 1e9,
                netNs / 1e9, (driveNs + mergeNs + netNs) / 1e9,
                driveNs * nodes * drives / 1e9,
                100 * driveNs / (driveNs + mergeNs + netNs));
    }

    private static Run run(Path work, byte[] all, int nodes, int perNode, String label)
            throws Exception {
        int drives = nodes * perNode;
        RUNS++;
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        // waitForCompletion polls every 5 s by default, which the wall clock would include
        conf.setInt("mapreduce.client.completion.pollinterval", 20);
        conf.setBoolean("smartssd.device.embedded.allowed", true);
        conf.set("smartssd.device.embedded.dir", work.resolve("drives").toString());
        // one drive size in every configuration: a smaller drive has fewer dies working at
        // once, so its scan rate would change with the drive count
        conf.setLong("smartssd.device.embedded.capacity", Math.max(64L << 20,
                4L * all.length));
        conf.set("mapreduce.cluster.local.dir", work.resolve("mr-local").toString());
        conf.set("hadoop.tmp.dir", work.resolve("hadoop-tmp").toString());
        conf.setInt("mapreduce.local.map.tasks.maximum", drives);
        long entries = all.length / ENTRY;
        List<org.apache.hadoop.fs.Path> inputs = new ArrayList<>();
        List<SmartSsdFileSystem> fss = new ArrayList<>();
        for (int d = 0; d < drives; d++) {
            String name = "r" + RUNS + "n" + (d / perNode) + "d" + (d % perNode);
            conf.set("smartssd.device." + name + ".host", "node" + (d / perNode));
            int from = (int) (entries * d / drives * ENTRY);
            int to = (int) (entries * (d + 1) / drives * ENTRY);
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("smartssd://" + name
                    + "/traces/q1.bin");
            FileSystem fs = p.getFileSystem(conf);
            try (FSDataOutputStream out = fs.create(p, true)) {
                out.write(all, from, to - from);
                // FLUSH: the write-behind programs complete before the job's window opens
                out.hsync();
            }
            inputs.add(p);
            fss.add((SmartSsdFileSystem) fs);
        }
        long[] before = new long[drives];
        ModelCounters[] first = new ModelCounters[drives];
        for (int d = 0; d < drives; d++) {
            first[d] = model(fss.get(d));
            // the host clock, when the job's first command arrives: the device clock may be
            // ahead of it with background work (a checkpoint after the writes, 11 ms at
            // some share sizes) that the job's commands and tasklet runs do not wait for
            before[d] = first[d].hostNowNs();
        }
        DeviceJob job = DeviceJob.getInstance(conf, "scale " + label);
        job.setDeviceMapper(DeviceQueryJob.tasklet(Query.Q1, ENTRY));
        job.setDeviceMapperFormat(AggregateFormat.class);
        job.setReducerClass(AggregateReducer.class);
        job.setNumReduceTasks(1);
        for (org.apache.hadoop.fs.Path p : inputs) {
            job.addInputPath(p);
        }
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(
                Files.createTempDirectory(work, "out-").resolve("out").toUri());
        FileOutputFormat.setOutputPath(job, out);
        long t0 = System.nanoTime();
        if (!job.waitForCompletion(false)) {
            throw new IllegalStateException(label + ": job failed: " + job.failureReason());
        }
        long wall = System.nanoTime() - t0;
        long[] busy = new long[drives];
        ModelCounters last = null;
        for (int d = 0; d < drives; d++) {
            last = model(fss.get(d));
            busy[d] = last.nowNs() - before[d];
            long isp = last.ispBusyNs() - first[d].ispBusyNs();
            if (busy[d] < isp) {
                throw new IllegalStateException(String.format("%s: drive %d busy %.2f ms, less "
                        + "than its ISP core's %.2f ms of counted work: the window misses part "
                        + "of the job", label, d, busy[d] / 1e6, isp / 1e6));
            }
        }
        ModelCounters f = first[drives - 1];
        // what the last drive's busy time is made of: the ISP core's counted work, the flash
        // reads that feed it, and background work left from the writes
        System.out.printf("%s: last drive: busy %.2f ms, its ISP core %.2f ms (%d pages, %d "
                        + "instructions, %d DRAM accesses), %d flash page reads; device clock "
                        + "%.2f ms ahead of the host clock before the job%n", label,
                busy[drives - 1] / 1e6, (last.ispBusyNs() - f.ispBusyNs()) / 1e6,
                last.ispPages() - f.ispPages(), last.ispInstructions() - f.ispInstructions(),
                last.ispDramAccesses() - f.ispDramAccesses(), last.pageReads() - f.pageReads(),
                (f.nowNs() - f.hostNowNs()) / 1e6);
        long[] perRegion = new long[16];
        FileSystem local = out.getFileSystem(conf);
        for (var st : local.listStatus(out, p -> p.getName().startsWith("part-"))) {
            try (SequenceFile.Reader r = new SequenceFile.Reader(conf,
                    SequenceFile.Reader.file(st.getPath()))) {
                LongPairWritable k = new LongPairWritable();
                AggregateWritable v = new AggregateWritable();
                while (r.next(k, v)) {
                    perRegion[(int) k.first()] += v.count();
                }
            }
        }
        var c = job.getCounters();
        Run r = new Run(label, nodes, perNode, busy,
                c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue(),
                c.findCounter(org.smartssd.mapreduce.DeviceCounters.OUTPUT_BYTES).getValue(),
                wall, perRegion);
        System.out.printf("%s: drives busy (modelled ms) %s, %d map outputs, wall %.1f s%n",
                label, Arrays.toString(Arrays.stream(busy).mapToObj(b -> String.format(
                        "%.2f", b / 1e6)).toArray()), r.mapOutputs(), wall / 1e9);
        return r;
    }

    private static ModelCounters model(SmartSsdFileSystem fs) throws IOException {
        return fs.device().modelCounters().orElseThrow(() -> new IOException(
                "the drive gives no model counters: the scale benchmark needs emulated drives"));
    }
}
