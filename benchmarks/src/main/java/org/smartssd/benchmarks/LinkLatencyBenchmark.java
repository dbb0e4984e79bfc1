package org.smartssd.benchmarks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.smartssd.device.Devd;
import org.smartssd.device.InputRange;
import org.smartssd.device.ObjectType;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletState;
import org.smartssd.device.TaskletSpec;

/**
 * Round-trip latency of the tasklet commands through the whole host stack: Java, JNI,
 * libsmartssd's codec, the transport, the emulated drive's firmware and back. Kang Fig. 6.7
 * measured execute_object and read_object at about one sector read each, plus 150-380 us of
 * JNI; these figures are the same pair on the emulated link, in-process (emu:) and through
 * smartssd-devd's socket (unix:). SampleTime mode, so p50 and p99 are reported.
 *
 * <p>The tasklet is grep counting lines, over one page of text (about 400 lines) or over
 * one line ({@code grepOver}). A poll that meets the run's slice waits for it, and a page's
 * grep is some microseconds of the drive's work, so {@code line} is the one whose pair
 * measures the link and command path alone (as {@code link_rtt}'s in-process rows do).
 * Between invocations (outside the timing) the previous run is awaited, since an instance
 * runs one execution at a time.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LinkLatencyBenchmark {
    private static final int SS_BT_GREP = 4;

    @Param({"emu", "unix"})
    public String transport;

    @Param({"page", "line"})
    public String grepOver;

    private Path dir;
    private Devd devd;
    private SmartSsdDevice device;
    private long instance;
    private List<InputRange> input;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("smartssd-bench");
        Path image = dir.resolve("dev0.img");
        SmartSsdDevice.formatEmulated(image, null, 256L << 20, 0);
        String uri = "emu:" + image;
        if (transport.equals("unix")) {
            devd = Devd.start(image, dir.resolve("dev0.sock"), Duration.ofSeconds(30));
            uri = devd.uri();
        }
        device = SmartSsdDevice.open(uri);
        long oid = device.create("/bench/lines.txt", ObjectType.FILE,
                SmartSsdDevice.CreateOption.PARENTS);
        StringBuilder text = new StringBuilder("GET /index.html 200\n");
        while (grepOver.equals("page") && text.length() < device.info().pageSize() - 64) {
            text.append("GET /index.html 200\n");
        }
        device.write(oid, 0, ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.US_ASCII)),
                true);
        long out = device.createOutput("/bench/count.out", false);
        // grep params: flags 0, reserved 0, pattern_len 0 (count every line)
        byte[] params = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0).array();
        instance = device.createTasklet(new TaskletSpec(SS_BT_GREP, RecordLayout.lines(4096),
                params, 64 * 1024, 0), out);
        input = List.of(InputRange.whole(oid));
    }

    @Setup(Level.Invocation)
    public void previousRunDone() throws IOException {
        TaskletProgress p = device.poll(instance);
        if (p.state() == TaskletState.RUNNING) {
            device.await(instance, Duration.ofSeconds(30), null);
        }
    }

    /** execute_object followed by one read_object progress poll. */
    @Benchmark
    public TaskletProgress executeThenPoll() throws IOException {
        device.execute(instance, input);
        return device.poll(instance);
    }

    /**
     * execute_object, then read_object polls until the run is no longer RUNNING: the same
     * work whichever comes first, the poll or the run's slice on the drive's controller.
     * (executeThenPoll's one poll finds the run done when the controller took it first,
     * and still running when the poll came first, so it measures less work when the
     * controller is slower to start.)
     */
    @Benchmark
    public TaskletProgress executeUntilDone() throws IOException {
        device.execute(instance, input);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        TaskletProgress p;
        do {
            p = device.poll(instance);
            if (System.nanoTime() > deadline) {
                throw new IOException(
                        "a grep run over a " + grepOver + " still RUNNING 30 s after execute");
            }
        } while (p.state() == TaskletState.RUNNING);
        return p;
    }

    /** One read_object progress poll alone. */
    @Benchmark
    public TaskletProgress poll() throws IOException {
        return device.poll(instance);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (device != null) {
            device.destroy(instance);
            device.close();
        }
        if (devd != null) {
            devd.close();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
