package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.SmartSsdDevice.CreateOption;
import org.smartssd.device.TaskletFailedException.Failure;

/** Each reason code the host can provoke on a real (emulated) drive reaches Java typed. */
class ErrorReasonsTest {
    @TempDir
    Path dir;
    SmartSsdDevice dev;
    String uri;

    @BeforeEach
    void open() throws Exception {
        uri = "emu:" + TestDrives.image(dir);
        dev = SmartSsdDevice.open(uri, new SmartSsdDevice.Options(0, 1, PollPolicy.DEFAULT));
    }

    @AfterEach
    void close() {
        dev.close();
    }

    private static void expect(ThrowingCallable call, Class<? extends Throwable> type,
                               Reason reason, String... inMessage) {
        assertThatThrownBy(call).isInstanceOf(type)
                .satisfies(e -> assertThat(((SmartSsdError) e).reason()).isEqualTo(reason))
                .satisfies(e -> {
                    for (String m : inMessage) {
                        assertThat(e.getMessage()).contains(m);
                    }
                });
    }

    @Test
    void namespaceReasons() throws Exception {
        long file = dev.create("/f", ObjectType.FILE);
        long d = dev.create("/d", ObjectType.DIRECTORY);
        dev.create("/d/x", ObjectType.FILE);
        expect(() -> dev.lookup("/missing/x"), NoSuchObjectException.class,
                Reason.NO_SUCH_OBJECT, "/missing/x", uri);
        expect(() -> dev.stat(987654), NoSuchObjectException.class, Reason.NO_SUCH_OBJECT,
                "object 987654");
        expect(() -> dev.create("/f", ObjectType.FILE, CreateOption.EXCLUSIVE),
                ObjectExistsException.class, Reason.EXISTS, "/f");
        expect(() -> dev.create("/f/c", ObjectType.FILE), NotADirectoryException.class,
                Reason.NOT_DIR, "/f/c");
        expect(() -> dev.write(d, 0, ByteBuffer.allocateDirect(8), false),
                SmartSsdException.class, Reason.IS_DIR);
        expect(() -> dev.remove("/d", false), DirectoryNotEmptyException.class,
                Reason.NOT_EMPTY, "/d");
        expect(() -> dev.create("/" + "n".repeat(300), ObjectType.FILE),
                SmartSsdException.class, Reason.NAME_TOO_LONG);
        expect(() -> dev.lookup("relative/path"), SmartSsdException.class, Reason.BAD_PATH,
                "relative/path");
        expect(() -> dev.rename("/d", "/d/inner", false), SmartSsdException.class,
                Reason.RENAME_INTO_SELF, "/d");
        expect(() -> dev.remove("/", true), SmartSsdException.class, Reason.ROOT);
        expect(() -> dev.truncate(file, Long.MAX_VALUE), SmartSsdException.class,
                Reason.BAD_FIELD);
        // nothing was harmed
        assertThat(dev.lookup("/d/x").type()).isEqualTo(ObjectType.FILE);
    }

    @Test
    void objectTableFull() throws Exception {
        dev.close();
        java.nio.file.Path img = dir.resolve("small-table.img");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 4);
        dev = SmartSsdDevice.open("emu:" + img);
        long max = dev.fsStat().maxObjects();
        assertThatThrownBy(() -> {
            for (int i = 0; i <= max; i++) {
                dev.create("/o" + i, ObjectType.FILE);
            }
        }).isInstanceOf(DriveFullException.class)
                .satisfies(e -> assertThat(((SmartSsdError) e).reason())
                        .isEqualTo(Reason.TOO_MANY_OBJECTS));
        assertThat(dev.fsStat().objects()).isEqualTo(max);
    }

    @Test
    void driveFull() throws Exception {
        dev.close();
        java.nio.file.Path img = dir.resolve("tiny.img");
        SmartSsdDevice.formatEmulated(img, TestDrives.tinyProfile(dir).toString(), 16L << 20, 0);
        dev = SmartSsdDevice.open("emu:" + img);
        long cap = dev.fsStat().capacityBytes();
        assertThat(cap).isLessThan(16L << 20);
        byte[] text = TestDrives.lines(40_000, 1).getBytes(StandardCharsets.US_ASCII);
        long in = dev.create("/text", ObjectType.FILE);
        dev.write(in, 0, ByteBuffer.wrap(text), false);
        ByteBuffer chunk = ByteBuffer.allocateDirect(256 * 1024);
        long[] written = {0};
        assertThatThrownBy(() -> {
            for (int i = 0; i < 1000; i++) {
                long oid = dev.create("/fill" + i, ObjectType.FILE);
                dev.write(oid, 0, chunk.clear(), false);
                written[0] += chunk.capacity();
            }
        }).isInstanceOf(DriveFullException.class)
                .satisfies(e -> assertThat(((SmartSsdError) e).reason()).isEqualTo(Reason.DRIVE_FULL))
                .hasMessageContaining("write object").hasMessageContaining("remove objects");
        assertThat(written[0]).isLessThanOrEqualTo(cap);
        // what was acknowledged is still there
        assertThat(dev.stat(dev.lookup("/fill0").oid()).size()).isEqualTo(chunk.capacity());
        // a tasklet whose output does not fit fails with the drive's reason, not silently
        long out = dev.createOutput("/grep.out", true);
        long inst = dev.createTasklet(new TaskletSpec(TestDrives.GREP, RecordLayout.lines(4096),
                TestDrives.grepParams(true, ""), 8192, 0), out);
        dev.execute(inst, List.of(InputRange.whole(in)));
        assertThatThrownBy(() -> dev.await(inst, Duration.ofSeconds(60), null))
                .isInstanceOf(DriveFullException.class)
                .satisfies(e -> assertThat(((SmartSsdError) e).reason()).isEqualTo(Reason.DRIVE_FULL));
    }

    private long input() throws Exception {
        byte[] text = TestDrives.lines(30_000, 4).getBytes(StandardCharsets.US_ASCII);
        long in = dev.create("/in.txt", ObjectType.FILE);
        dev.write(in, 0, ByteBuffer.wrap(text), false);
        return in;
    }

    private TaskletFailedException runFailing(TaskletSpec spec, long in) throws Exception {
        long out = dev.createOutput("/out-" + System.nanoTime(), true);
        long inst = dev.createTasklet(spec, out);
        try {
            dev.execute(inst, List.of(InputRange.whole(in)));
            dev.await(inst, Duration.ofSeconds(60), null);
            throw new AssertionError("tasklet " + spec + " did not fail");
        } catch (TaskletFailedException e) {
            return e;
        } finally {
            dev.destroy(inst);
        }
    }

    @Test
    void taskletReasons() throws Exception {
        long in = input();
        long out = dev.createOutput("/o", true);
        byte[] grep = TestDrives.grepParams(false, "hit");
        RecordLayout lines = RecordLayout.lines(4096);

        assertThatThrownBy(() -> dev.createTasklet(new TaskletSpec(999, lines, grep, 4096, 0), out))
                .isInstanceOfSatisfying(TaskletFailedException.class,
                        e -> assertThat(e.failure()).isEqualTo(Failure.UNKNOWN_TASKLET))
                .hasMessageContaining("999");
        RecordLayout bad = RecordLayout.fixed(8, List.of(Field.of(100, FieldType.U32)));
        assertThatThrownBy(() -> dev.createTasklet(new TaskletSpec(TestDrives.GROUP_AGG, bad,
                TestDrives.aggParams(0, 0, 1), 4096, 0), out))
                .isInstanceOfSatisfying(TaskletFailedException.class,
                        e -> assertThat(e.failure()).isEqualTo(Failure.LAYOUT));
        assertThatThrownBy(() -> dev.createTasklet(new TaskletSpec(TestDrives.GREP, lines, grep,
                Integer.MAX_VALUE, 0), out))
                .isInstanceOfSatisfying(TaskletFailedException.class,
                        e -> assertThat(e.failure()).isEqualTo(Failure.BUDGET));

        // parameters are checked by the tasklet's init, when it runs: 3 bytes for grep
        TaskletFailedException params = runFailing(new TaskletSpec(TestDrives.GREP, lines,
                new byte[3], 4096, 0), in);
        assertThat(params.failure()).isEqualTo(Failure.PARAMS);
        assertThat(params.reason()).isEqualTo(Reason.TASKLET_PARAMS);

        TaskletFailedException budget = runFailing(new TaskletSpec(TestDrives.GREP, lines, grep,
                16, 0), in);
        assertThat(budget.failure()).isEqualTo(Failure.BUDGET);
        assertThat(budget.getMessage()).contains("larger memory budget");

        TaskletFailedException steps = runFailing(new TaskletSpec(TestDrives.GREP, lines, grep,
                64 * 1024, 1), in);
        assertThat(steps.failure()).isEqualTo(Failure.STEPS);
        assertThat(steps.reason()).isEqualTo(Reason.TASKLET_STEPS);

        // lines longer than the layout's longest line (8 bytes): the engine stops the run
        TaskletFailedException other = runFailing(new TaskletSpec(TestDrives.GREP,
                RecordLayout.lines(8), grep, 64 * 1024, 0), in);
        assertThat(other.failure()).isEqualTo(Failure.OTHER);
        assertThat(other.reason()).isEqualTo(Reason.TASKLET_FAILED);
        assertThat(other.errno()).isEqualTo(Errno.E2BIG);
        // the drive and its data are unharmed: a good run still gives the right count
        long inst = dev.createTasklet(new TaskletSpec(TestDrives.GREP, lines, grep, 64 * 1024, 0),
                out);
        dev.execute(inst, List.of(InputRange.whole(in)));
        dev.await(inst, Duration.ofSeconds(60), null);
        assertThat(TestDrives.Trailer.of(dev.readAllOutput(inst)).aux()).isEqualTo(7_500);
    }

    @Test
    void taskletRunningAndInstancesExhausted() throws Exception {
        // no controller thread: a run executed stays running until destroyed, however fast
        // the machine (a run that was merely long could end before the second execute)
        dev.close();
        dev = SmartSsdDevice.open(uri + "?background=manual",
                new SmartSsdDevice.Options(0, 1, PollPolicy.DEFAULT));
        byte[] text = TestDrives.lines(1_000, 4).getBytes(StandardCharsets.US_ASCII);
        long in = dev.create("/long.txt", ObjectType.FILE);
        dev.write(in, 0, ByteBuffer.wrap(text), false);
        long out = dev.createOutput("/o", true);
        TaskletSpec spec = new TaskletSpec(TestDrives.GREP, RecordLayout.lines(4096),
                TestDrives.grepParams(false, "hit"), 1024, 0);
        long inst = dev.createTasklet(spec, out);
        dev.execute(inst, List.of(InputRange.whole(in)));
        expect(() -> dev.execute(inst, List.of(InputRange.whole(in))),
                SmartSsdException.class, Reason.TASKLET_RUNNING, "tasklet " + inst);
        dev.destroy(inst);

        // busy: every instance slot taken (BUSY retries are limited to 1 ms by the options)
        assertThatThrownBy(() -> {
            for (int i = 0; i < 100_000; i++) {
                dev.createTasklet(spec, out);
            }
        }).isInstanceOf(SmartSsdException.class)
                .satisfies(e -> assertThat(((SmartSsdError) e).reason()).isEqualTo(Reason.BUSY))
                .hasMessageContaining("destroy finished tasklet instances");
    }

    @Test
    void secondInProcessOpenOfAnImageIsBusy() {
        assertThatThrownBy(() -> SmartSsdDevice.open(uri)).isInstanceOf(SmartSsdException.class)
                .hasMessageContaining("smartssd-devd");
    }

    @Test
    void missingImageIsNotFound() {
        assertThatThrownBy(() -> SmartSsdDevice.open("emu:" + dir.resolve("none.img")))
                .isInstanceOf(NoSuchObjectException.class).hasMessageContaining("none.img");
    }
}
