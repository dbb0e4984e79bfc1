package org.smartssd.benchmarks.placement;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.smartssd.benchmarks.kang.Csv;
import org.smartssd.loganalyzer.Answer;
import org.smartssd.loganalyzer.FileType;
import org.smartssd.loganalyzer.LogAnalyzer;
import org.smartssd.loganalyzer.Query;
import org.smartssd.loganalyzer.Region;
import org.smartssd.loganalyzer.TraceGenerator;
import org.smartssd.loganalyzer.WorldCupRecord;
import org.smartssd.loganalyzer.device.PlacedQueryJob;
import org.smartssd.loganalyzer.model.HostCostModel;
import org.smartssd.mapreduce.DeviceCounters;
import org.smartssd.scan.Placement;
import org.smartssd.mapreduce.PlacementCounters;

/**
 * Cost-based placement on every cell of Kang's Fig. 6.8 (Q1 and Q2 at 32, 64, 128 and 256 B
 * entries; [Kang 2014, §6.5.3.1, Fig. 6.8, p. 78]): the same {@link PlacedQueryJob} with every
 * split on the host (host-only: host-optimized's mapper), every split in the drive
 * (device-only), placed by the planner and drained at run time (auto, {@code DrainScheduler}) and
 * run where the plan made before the job put each split (plan only,
 * {@value Placement#DRAIN} false), on one embedded kang-smartssd drive, the LocalJobRunner.
 * Every answer must equal the one computed here from the bytes.
 *
 * <p>Modelled job time, from the job's counters and profile constants, never wall clock:
 * max(controller, host side, flash) + merge, where
 * <ul>
 *   <li>controller = MODELLED_DEVICE_NS (the tasklet runs' counted work priced by the
 *       drive's profile plus their outputs over the link; one ISP core runs one split at a
 *       time) plus the firmware's work for every page the host read, the profile's
 *       fw_page_overhead_ns each: the controller that runs the tasklets also serves the
 *       host's reads (FTL lookup, flash and DMA set-up for each page), as on Kang's drive,
 *       whose in-storage code runs on the controller's cores [Kang 2014, §6.5.1];</li>
 *   <li>host side = MODELLED_HOST_NS: the bytes the host read over the link plus the host's
 *       rate over them, {@link HostCostModel#IO_NS_PER_BYTE} ns/B and the query's ns per
 *       record (one stream of reads, NCQ off, [Kang 2014, §6.5.1]); the rate is a constant,
 *       printed in the output;</li>
 *   <li>flash = every byte either side read over the flash channels, 16 x 46.875e6 B/s
 *       (kang-smartssd.profile: channels, channel_bytes_per_s), the one resource both sides
 *       share besides the link, which only the host side and the drive's small outputs
 *       use;</li>
 *   <li>merge = the map outputs through the host's reduce,
 *       {@link HostCostModel#MAP_OUTPUT_NS_PER_RECORD} ns each, after the maps.</li>
 * </ul>
 * The emulator charges a host read to the link (a per-command overhead and the bytes) and
 * to the flash on the host's own timeline, never to the ISP core (emu/model.c: host I/O
 * never queues behind ISP work, a stated simplification); a drive's one controller cannot do
 * both at once, so the benchmark adds the host's pages to the controller's time. The last
 * column is auto against the better side as the emulator alone would give them, the host's
 * reads free to the controller.
 */
public final class PlacementBenchmark {
    /** kang-smartssd.profile: 16 channels x 46,875,000 B/s. */
    static final double FLASH_BYTES_PER_S = 16 * 46_875_000.0;
    static final int[] SIZES = {32, 64, 128, 256};
    /** Splits per file, at most: the plan's granularity (one split is 1/64 of the work). */
    static final int SPLITS = 64;
    /** Splits of at least 1 MiB: each tasklet run has a cost of its own (Q2's group table,
     *  0.4 ms a run), which tiny splits would multiply. */
    static final long MIN_SPLIT = 1 << 20;

    record Run(Placement placement, Answer answer, long deviceNs, long hostNs, long flashNs,
               long mergeNs, long estDeviceNs, long onDevice, long onHost, long hostPages,
               long fwPageNs, long rounds, long moved, long wallNs, Configuration jobConf) {
        /** The controller's time: the tasklets' work and the firmware's for each page the
         *  host read. */
        long controllerNs() {
            return deviceNs + hostPages * fwPageNs;
        }

        long modelledNs() {
            return Math.max(Math.max(controllerNs(), hostNs), flashNs) + mergeNs;
        }

        /** As the emulator alone models it: the host's reads cost the controller nothing. */
        long hostReadsFreeNs() {
            return Math.max(Math.max(deviceNs, hostNs), flashNs) + mergeNs;
        }
    }

    private PlacementBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        long entries = 1_000_000;
        Path outDir = Path.of("benchmarks/results/placement");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--entries" -> entries = Long.parseLong(args[++i]);
                case "--out" -> outDir = Path.of(args[++i]);
                default -> {
                    System.err.println("usage: PlacementBenchmark [--entries N] [--out DIR]");
                    System.exit(2);
                }
            }
        }
        Files.createDirectories(outDir);
        Path work = Files.createTempDirectory("smartssd-placement");
        List<String> table = new ArrayList<>();
        try (LogAnalyzer la = LogAnalyzer.embedded(work,
                LogAnalyzer.capacityFor(entries * SIZES[SIZES.length - 1]), null);
             Csv csv = new Csv(outDir.resolve("placement.csv"), "query", "entry_bytes",
                     "entries", "splits", "host_only_ms", "device_only_ms", "auto_ms",
                     "auto_over_better", "auto_splits_device", "auto_splits_host",
                     "auto_device_side_ms", "auto_host_reads_controller_ms",
                     "auto_host_side_ms", "auto_est_device_ms", "auto_flash_ms", "merge_ms",
                     "fw_page_overhead_ns", "host_ns_per_byte", "host_ns_per_record",
                     "link_ns_per_byte", "device_ns_per_page", "device_ns_per_run",
                     "auto_if_host_reads_free_ms", "auto_over_better_if_host_reads_free",
                     "planned_ms", "planned_over_better", "drain_rounds", "drain_moved",
                     "wall_host_s", "wall_device_s", "wall_auto_s", "wall_planned_s")) {
            for (int es : SIZES) {
                TraceGenerator gen = new TraceGenerator(TraceGenerator.Options.of(entries, 68, es));
                ByteArrayOutputStream b = new ByteArrayOutputStream((int) gen.totalBytes());
                gen.write(b, n -> { });
                byte[] trace = b.toByteArray();
                LogAnalyzer.DriveFile f = la.put("placement.e" + es, trace, es);
                long split = Math.max(MIN_SPLIT,
                        (trace.length / SPLITS / 8192 + 1) * 8192);
                for (Query q : Query.values()) {
                    Answer reference = reference(q, trace, es);
                    Map<String, Run> runs = new LinkedHashMap<>();
                    for (String mode : List.of("host", "device", "auto", "planned")) {
                        Placement p = mode.equals("planned") ? Placement.AUTO
                                : Placement.valueOf(mode.toUpperCase(Locale.ROOT));
                        Run r = run(la, work, q, p, !mode.equals("planned"), f, split);
                        if (!r.answer().equals(reference)) {
                            throw new IllegalStateException(q + " " + mode + " at " + es
                                    + " B answered " + r.answer().summary()
                                    + ", the bytes say " + reference.summary());
                        }
                        runs.put(mode, r);
                    }
                    Run host = runs.get("host");
                    Run dev = runs.get("device");
                    Run auto = runs.get("auto");
                    Run planned = runs.get("planned");
                    double better = Math.min(host.modelledNs(), dev.modelledNs());
                    double betterFree = Math.min(host.hostReadsFreeNs(), dev.hostReadsFreeNs());
                    String drive = f.path().toUri().getAuthority();
                    String cal = Placement.CALIBRATED + drive + ".";
                    Configuration jc = auto.jobConf();
                    csv.row(q.cliName(), es, entries, auto.onDevice() + auto.onHost(),
                            ms(host.modelledNs()), ms(dev.modelledNs()), ms(auto.modelledNs()),
                            auto.modelledNs() / better, auto.onDevice(), auto.onHost(),
                            ms(auto.deviceNs()), ms(auto.controllerNs() - auto.deviceNs()),
                            ms(auto.hostNs()), ms(auto.estDeviceNs()), ms(auto.flashNs()),
                            ms(auto.mergeNs()), auto.fwPageNs(),
                            jc.getDouble(cal + "host.ns-per-byte", 0),
                            jc.getDouble(cal + "host.ns-per-record", 0),
                            jc.getDouble(cal + "link.ns-per-byte", 0),
                            jc.getDouble(cal + "device.ns-per-page", 0),
                            jc.getDouble(cal + "device.ns-per-run", 0),
                            ms(auto.hostReadsFreeNs()), auto.hostReadsFreeNs() / betterFree,
                            ms(planned.modelledNs()),
                            planned.modelledNs() / better, auto.rounds(), auto.moved(),
                            host.wallNs() / 1e9, dev.wallNs() / 1e9, auto.wallNs() / 1e9,
                            planned.wallNs() / 1e9);
                    table.add(String.format(Locale.ROOT,
                            "| %s | %d | %.1f | %.1f | %.1f | **%.3f** | %.1f | %d / %d (%d "
                                    + "moved, %d rounds) | %.1f + %.1f / %.1f | %.1f / %.1f "
                                    + "| %.3f |",
                            q.cliName().toUpperCase(Locale.ROOT),
                            es, ms(host.modelledNs()), ms(dev.modelledNs()),
                            ms(auto.modelledNs()), auto.modelledNs() / better,
                            ms(planned.modelledNs()), auto.onDevice(), auto.onHost(),
                            auto.moved(), auto.rounds(), ms(auto.deviceNs()),
                            ms(auto.controllerNs() - auto.deviceNs()), ms(auto.hostNs()),
                            ms(auto.estDeviceNs()), ms(auto.deviceNs()),
                            auto.hostReadsFreeNs() / betterFree));
                    System.out.println(table.get(table.size() - 1) + "   calibration: "
                            + jc.get(cal + "source"));
                }
                la.remove(f);
            }
        }
        System.out.printf("%n%,d entries per file, splits of max(1 MiB, 1/%d of the file); "
                + "modelled ms, the host's reads charged to the controller; auto / better = "
                + "auto (drained at run time) over the better of host-only and device-only; "
                + "plan only = auto run where the plan made before the job put each split%n",
                entries, SPLITS);
        System.out.println("| query | entry B | host-only | device-only | auto | auto / better"
                + " | plan only | auto splits device / host | auto: controller (tasklets + "
                + "host reads) / host side | device side est. / modelled | auto / better if "
                + "host reads left the controller free |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---|---|---|---:|");
        table.forEach(System.out::println);
        System.out.println("CSV: " + outDir.resolve("placement.csv"));
    }

    private static Run run(LogAnalyzer la, Path work, Query q, Placement p, boolean drain,
                           LogAnalyzer.DriveFile f, long split) throws Exception {
        Configuration conf = new Configuration(la.conf());
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", split);
        conf.setBoolean(Placement.DRAIN, drain);
        org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(work.resolve("out-"
                + q.cliName() + "-" + p.cliName() + "-" + UUID.randomUUID()).toUri());
        long t0 = System.nanoTime();
        PlacedQueryJob.Result r = PlacedQueryJob.run(conf, q, p, f.path(), f.entrySize(), out);
        long wall = System.nanoTime() - t0;
        Counters c = r.counters();
        long devBytes = c.findCounter(DeviceCounters.PAGES_SCANNED).getValue()
                * HostCostModel.PAGE_BYTES;
        long hostBytes = c.findCounter(PlacementCounters.HOST_BYTES_READ).getValue();
        long flash = Math.round((devBytes + hostBytes) / FLASH_BYTES_PER_S * 1e9);
        long merge = Math.round(c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue()
                * HostCostModel.MAP_OUTPUT_NS_PER_RECORD);
        long fwPageNs = la.device().modelCounters().orElseThrow(() -> new IllegalStateException(
                "the drive gives no model counters: the placement benchmark needs an emulated "
                        + "drive")).prices().fwPageOverheadNs();
        if (fwPageNs == 0) {
            throw new IllegalStateException("the drive does not report fw_page_overhead_ns");
        }
        return new Run(p, r.answer(), v(c, PlacementCounters.MODELLED_DEVICE_NS),
                v(c, PlacementCounters.MODELLED_HOST_NS), flash, merge,
                v(c, PlacementCounters.ESTIMATED_DEVICE_NS),
                v(c, PlacementCounters.SPLITS_ON_DEVICE), v(c, PlacementCounters.SPLITS_ON_HOST),
                (hostBytes + HostCostModel.PAGE_BYTES - 1) / HostCostModel.PAGE_BYTES, fwPageNs,
                v(c, PlacementCounters.DRAIN_ROUNDS), v(c, PlacementCounters.SPLITS_MOVED_BY_DRAIN),
                wall, r.jobConf());
    }

    /** The answer from the bytes: a loop over the entries, the fields read by offset. */
    static Answer reference(Query q, byte[] trace, int es) {
        long[][] counts = new long[Region.CODES][FileType.CODES];
        for (int off = 0; off + es <= trace.length; off += es) {
            int region = (trace[off + WorldCupRecord.OFF_SERVER] & 0xff) >>> 5;
            int type = trace[off + WorldCupRecord.OFF_TYPE] & 0xff;
            counts[region][type]++;
        }
        if (q == Query.Q2) {
            return Answer.q2(counts);
        }
        long[] perRegion = new long[Region.CODES];
        for (int r = 0; r < Region.CODES; r++) {
            for (long n : counts[r]) {
                perRegion[r] += n;
            }
        }
        return Answer.q1(perRegion);
    }

    private static long v(Counters c, Enum<?> e) {
        return c.findCounter(e).getValue();
    }

    private static double ms(long ns) {
        return ns / 1e6;
    }

    private static double ms(double ns) {
        return ns / 1e6;
    }
}
