package org.smartssd.benchmarks.kang;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.smartssd.device.Devd;
import org.smartssd.device.InputRange;
import org.smartssd.device.ModelCounters;
import org.smartssd.device.ObjectType;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.TaskletState;

/**
 * Kang Fig. 6.7 ([Kang 2014, §6.5.2.3, Fig. 6.7, p. 77]) on the emulated drive,
 * in-process ({@code emu:}) and over smartssd-devd's socket ({@code unix:}): for each command,
 * the drive's modelled link busy time per command (Kang's raw I/O bar), averaged,
 * and the host stack's wall-clock round trip through Java and JNI, p50 and p99.
 * A lighter stand-in for the JMH LinkLatencyBenchmark. Writes {@code fig6_7.csv}.
 * Usage: {@code CommandLatency --out DIR [--n N]}
 */
public final class CommandLatency {
    private static final int SS_BT_GREP = 4;

    private CommandLatency() {
    }

    /** One command, run {@code n} times. */
    private interface Op {
        void run(int i) throws IOException;
    }

    public static void main(String[] args) throws Exception {
        Path out = null;
        int n = 500;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--out" -> out = Path.of(args[i + 1]);
                case "--n" -> n = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option '" + args[i]
                        + "' (use --out DIR --n N)");
            }
        }
        if (out == null || n < 10) {
            throw new IllegalArgumentException("usage: CommandLatency --out DIR [--n N >= 10]");
        }
        Files.createDirectories(out);
        try (Csv csv = new Csv(out.resolve("fig6_7.csv"), "transport", "command", "n",
                "modelled_link_us", "wall_p50_us", "wall_p99_us")) {
            for (String t : List.of("emu", "unix")) {
                measure(t, n, csv);
            }
        }
    }

    private static void measure(String transport, int n, Csv csv) throws IOException {
        Path dir = Files.createTempDirectory("kang-latency-");
        Path image = dir.resolve("dev0.img");
        SmartSsdDevice.formatEmulated(image, null, 256L << 20, 0);
        Devd devd = transport.equals("unix")
                ? Devd.start(image, dir.resolve("dev0.sock"), Duration.ofSeconds(30)) : null;
        try (SmartSsdDevice dev = SmartSsdDevice.open(devd != null ? devd.uri() : "emu:" + image)) {
            long oid = dev.create("/bench/lines.txt", ObjectType.FILE,
                    SmartSsdDevice.CreateOption.PARENTS);
            StringBuilder text = new StringBuilder();
            while (text.length() < dev.info().pageSize() - 64) {
                text.append("GET /index.html 200\n");
            }
            dev.write(oid, 0, ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.US_ASCII)),
                    true);
            long outOid = dev.createOutput("/bench/count.out", false);
            byte[] params = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0).array();
            long inst = dev.createTasklet(new TaskletSpec(SS_BT_GREP, RecordLayout.lines(4096),
                    params, 64 * 1024, 0), outOid);
            List<InputRange> input = List.of(InputRange.whole(oid));
            byte[] sector = new byte[512];
            row(csv, transport, "read_sector", n, dev,
                    i -> dev.read(oid, 0, sector, 0, sector.length), null);
            row(csv, transport, "create_object", n, dev,
                    i -> dev.create("/bench/c/" + i, ObjectType.FILE,
                            SmartSsdDevice.CreateOption.PARENTS), null);
            row(csv, transport, "execute_object", n, dev, i -> dev.execute(inst, input),
                    () -> {
                        TaskletProgress p = dev.poll(inst);
                        if (p.state() == TaskletState.RUNNING) {
                            dev.await(inst, Duration.ofSeconds(30), null);
                        }
                    });
            row(csv, transport, "read_object_poll", n, dev, i -> dev.poll(inst), null);
            dev.destroy(inst);
        } finally {
            if (devd != null) {
                devd.close();
            }
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Wall-clock per command (settle runs untimed between commands) and modelled mean. */
    private static void row(Csv csv, String transport, String name, int n, SmartSsdDevice dev,
                            Op op, Settle settle) throws IOException {
        long[] wall = new long[n];
        long modelled = 0;
        for (int i = 0; i < n; i++) {
            if (settle != null) {
                settle.run();
            }
            ModelCounters a = dev.modelCounters().orElseThrow();
            long t0 = System.nanoTime();
            op.run(i);
            wall[i] = System.nanoTime() - t0;
            ModelCounters b = dev.modelCounters().orElseThrow();
            modelled += b.linkBusyNs() - a.linkBusyNs();
        }
        if (settle != null) {
            settle.run();
        }
        Arrays.sort(wall);
        csv.row(transport, name, n, modelled / 1e3 / n, wall[n / 2] / 1e3,
                wall[Math.min(n - 1, (int) Math.ceil(n * 0.99) - 1)] / 1e3);
    }

    private interface Settle {
        void run() throws IOException;
    }
}
