package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.InputRange;
import org.smartssd.device.Reason;
import org.smartssd.device.SmartSsdException;
import org.smartssd.device.TaskletFailedException;
import org.smartssd.device.TaskletFailedException.Failure;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.tasklet.BpfProgram;
import org.smartssd.scan.DeviceAccess;

/**
 * Device jobs that run eBPF programs loaded on the drive ({@link DeviceJob#setDeviceProgram}),
 * on the LocalJobRunner over an embedded emulated drive: the programs clang compiled during
 * the C build (firmware-tasklets/bpf/tests/progs, the built-ins rewritten in eBPF), their
 * groups, emitted records and counters read by the stock program formats over several
 * splits, each answer against plain Java over the same records; a program not loaded and a
 * program that does not fit the layout each fail {@code submit()} with their typed error.
 */
class ProgramJobTest {
    static final int N = 20_000;
    static final int KEYS = 13;
    static final long OVER = 300;
    static final int SIZE = 16;
    /** key I32 @0, value I64 @8, big-endian: fields 0 and 1 of the isp_* programs. */
    static final RecordLayout LAYOUT = RecordLayout.fixed(SIZE, List.of(
            Field.of(0, FieldType.I32), Field.of(8, FieldType.I64)));

    @TempDir
    static java.nio.file.Path dir;
    static Configuration conf;
    static byte[] data;
    static Path input;
    static SmartSsdDevice drive;

    static byte[] program(String name) throws Exception {
        java.nio.file.Path p = java.nio.file.Path.of(System.getProperty("smartssd.native.build",
                "."), "firmware-tasklets", "bpf", "progs", name + ".o");
        assumeTrue(Files.isRegularFile(p), "no " + p + ": clang -target bpf was not found when"
                + " the C build was configured");
        return Files.readAllBytes(p);
    }

    @BeforeAll
    static void writeInputAndLoad() throws Exception {
        conf = Drives.local(dir);
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", 64 * 1024);
        ByteBuffer b = ByteBuffer.allocate(N * SIZE);
        java.util.Random rnd = new java.util.Random(37);
        for (int i = 0; i < N; i++) {
            b.putInt(i * SIZE, rnd.nextInt(KEYS)).putInt(i * SIZE + 4, i)
                    .putLong(i * SIZE + 8, rnd.nextInt(2001) - 1000);
        }
        data = b.array();
        input = new Path("smartssd://progtest/data/kv.bin");
        Drives.write(conf, input, data);
        drive = DeviceAccess.of(input, conf).device();
        drive.loadProgram("grp", program("isp_group"), true);
        drive.loadProgram("over", program("isp_filter"), true);
    }

    private static long key(int i) {
        return ByteBuffer.wrap(data).getInt(i * SIZE);
    }

    private static long value(int i) {
        return ByteBuffer.wrap(data).getLong(i * SIZE + 8);
    }

    private static DeviceJob job(String name, BpfProgram program, RecordLayout layout,
                                 Path in, Class<? extends DeviceMapperFormat<?, ?>> format)
            throws Exception {
        DeviceJob job = DeviceJob.getInstance(new Configuration(conf), name);
        job.setDeviceProgram(program, layout);
        job.setDeviceMapperFormat(format);
        job.addInputPath(in);
        job.setNumReduceTasks(1);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileOutputFormat.setOutputPath(job, out(name));
        return job;
    }

    private static Path out(String name) {
        return new Path(dir.resolve("out-" + name).toUri());
    }

    @Test
    void groupsOfAProgramMergeAcrossSplitsToPlainJavasAnswer() throws Exception {
        DeviceJob job = job("groups", new BpfProgram("grp", null, 0, 64, 0, 0), LAYOUT, input,
                ProgramGroupsFormat.class);
        job.setCombinerClass(AggregateReducer.class);
        job.setReducerClass(AggregateReducer.class);
        assertThat(job.waitForCompletion(false)).isTrue();
        assertThat(new DeviceInputFormat().extentSplits(job)).hasSizeGreaterThan(3);

        Map<Long, List<Long>> expect = new TreeMap<>();
        for (int i = 0; i < N; i++) {
            long v = value(i);
            expect.merge(key(i), List.of(1L, v, v, v), (a, c) -> List.of(a.get(0) + 1,
                    a.get(1) + v, Math.min(a.get(2), v), Math.max(a.get(3), v)));
        }
        Map<Long, List<Long>> got = new TreeMap<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), out("groups"),
                LongPairWritable.class, AggregateWritable.class)) {
            AggregateWritable a = (AggregateWritable) kv[1];
            got.put(((LongPairWritable) kv[0]).first(),
                    List.of(a.count(), a.sum(), a.min(), a.max()));
        }
        assertThat(got).hasSize(KEYS).isEqualTo(expect);
        assertThat(job.getCounters().findCounter(DeviceCounters.RECORDS_SCANNED).getValue())
                .isEqualTo(N);
    }

    @Test
    void emittedRecordsComeBackInFileOrder() throws Exception {
        DeviceJob job = job("records", new BpfProgram("over", new long[] {OVER}, 8, 0, 0, 0),
                LAYOUT, input, ProgramRecordsFormat.class);
        job.getConfiguration().setInt(ProgramRecordsFormat.RECORD_SIZE, SIZE);
        assertThat(job.waitForCompletion(false)).isTrue();

        List<byte[]> expect = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            if (value(i) > OVER) {
                expect.add(Arrays.copyOfRange(data, i * SIZE, (i + 1) * SIZE));
            }
        }
        List<byte[]> got = new ArrayList<>();
        for (Object[] kv : Drives.read(job.getConfiguration(), out("records"),
                LongPairWritable.class, BytesWritable.class)) {
            got.add(((BytesWritable) kv[1]).copyBytes());
        }
        assertThat(got).hasSameSizeAs(expect).isNotEmpty();
        for (int i = 0; i < got.size(); i++) {
            assertThat(got.get(i)).as("record %d", i).isEqualTo(expect.get(i));
        }
    }

    @Test
    void countersInTheOutputBufferAddUpAcrossSplits() throws Exception {
        DeviceJob job = job("counters", new BpfProgram("over", new long[] {OVER}, 8, 0, 0, 0),
                LAYOUT, input, ProgramCountersFormat.class);
        job.setReducerClass(LongSumReducer.class);
        assertThat(job.waitForCompletion(false)).isTrue();

        long matches = 0;
        for (int i = 0; i < N; i++) {
            matches += value(i) > OVER ? 1 : 0;
        }
        List<Object[]> got = Drives.read(job.getConfiguration(), out("counters"),
                LongWritable.class, LongWritable.class);
        assertThat(got).hasSize(1);
        assertThat(((LongWritable) got.get(0)[0]).get()).isZero();
        assertThat(((LongWritable) got.get(0)[1]).get()).isEqualTo(matches);
    }

    @Test
    void aProgramNotLoadedFailsSubmitNamingItAndTheDrive() throws Exception {
        DeviceJob job = job("absent", BpfProgram.of("absent", 1), LAYOUT, input,
                ProgramGroupsFormat.class);
        assertThatThrownBy(job::submit).isInstanceOfSatisfying(TaskletFailedException.class,
                e -> {
                    assertThat(e.failure()).isEqualTo(Failure.PROGRAM_NOT_LOADED);
                    assertThat(e.getMessage()).contains("'absent' is loaded on " + drive.uri()
                            + " (");
                });
        // the drive's own answer, where the host did not ask first: the same type
        assertThatThrownBy(() -> BpfProgram.of("absent").run(drive, LAYOUT,
                DeviceAccess.of(input, conf).stat().oid(), 0, InputRange.TO_END, "/absent.out",
                Duration.ofSeconds(30)))
                .isInstanceOfSatisfying(TaskletFailedException.class, e -> {
                    assertThat(e.failure()).isEqualTo(Failure.PROGRAM_NOT_LOADED);
                    assertThat(e.getMessage()).contains("'absent'");
                });
    }

    @Test
    void aDriveOfTheInputsWithoutTheProgramFailsSubmitNamingThatDrive() throws Exception {
        Path other = new Path("smartssd://progtest2/data/kv.bin");
        Drives.write(conf, other, data);
        SmartSsdDevice second = DeviceAccess.of(other, conf).device();
        DeviceJob job = job("second-drive", new BpfProgram("grp", null, 0, 64, 0, 0), LAYOUT,
                input, ProgramGroupsFormat.class);
        job.addInputPath(other);
        assertThatThrownBy(job::submit).isInstanceOfSatisfying(TaskletFailedException.class,
                e -> {
                    assertThat(e.failure()).isEqualTo(Failure.PROGRAM_NOT_LOADED);
                    assertThat(second.uri()).isNotEqualTo(drive.uri());
                    assertThat(e.getMessage()).contains("'grp' is loaded on " + second.uri()
                            + " (");
                });
    }

    @Test
    void aProgramThatDoesNotFitTheLayoutFailsSubmitWithTheVerifiersReason() throws Exception {
        // isp_filter emits 16 bytes of the record: records of 12 bytes are too short for it
        Path small = new Path("smartssd://progtest/data/small.bin");
        Drives.write(conf, small, Arrays.copyOf(data, 12 * 1000));
        RecordLayout twelve = RecordLayout.fixed(12, List.of(Field.of(0, FieldType.I32),
                Field.of(4, FieldType.I64)));
        DeviceJob job = job("refused", new BpfProgram("over", new long[] {OVER}, 8, 0, 0, 0),
                twelve, small, ProgramRecordsFormat.class);
        assertThatThrownBy(job::submit).isInstanceOfSatisfying(SmartSsdException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.PROGRAM_REFUSED))
                .hasMessageContaining("program 'over'")
                .hasMessageContaining("small.bin")
                .hasMessageContaining("(HELPER_ARG)");
    }
}
