package org.smartssd.examples.usertasklet;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.tasklet.BpfProgram;
import org.smartssd.mapreduce.AggregateReducer;
import org.smartssd.mapreduce.AggregateWritable;
import org.smartssd.mapreduce.DeviceJob;
import org.smartssd.mapreduce.LongPairWritable;
import org.smartssd.mapreduce.ProgramGroupsFormat;
import org.smartssd.scan.DeviceAccess;

/**
 * Per-sensor statistics of a sensor log ({@link SensorReadings}) in a time window, computed in
 * the drive by the user's eBPF tasklet {@code sensor_stats.c} (compiled into this jar by the
 * build) and merged by the reduce:
 *
 * <pre>
 * SensorStatsJob INPUT OUTPUT FROM TO     # smartssd://DRIVE/file, a folder, [FROM, TO) in s
 * </pre>
 *
 * It loads the program onto the input's drive (replacing an older copy), runs one DeviceJob
 * whose map is the program over each split, and prints each sensor's statistics and the
 * number of records whose check failed.
 */
public class SensorStatsJob extends Configured implements Tool {
    /** The name the program is loaded under. */
    public static final String PROGRAM = "sensor_stats";
    /** Where the build puts the compiled program in the jar. */
    public static final String RESOURCE = "/tasklets/sensor_stats.o";
    /** The group table's slots: two groups per sensor, so up to 2047 sensors. */
    public static final int GROUP_SLOTS = 4096;
    /** The group of records whose check failed (all ones, as the program names it). */
    public static final long CORRUPT = -1L;
    /** No fields: the program parses the records itself. */
    public static final RecordLayout LAYOUT = RecordLayout.fixed(SensorReadings.SIZE,
            java.util.List.of());

    /** What the job found: statistics per sensor, and records whose check failed. */
    public record Result(Map<Long, SensorStats> sensors, long corrupt) {
    }

    /** The compiled program, from this jar. */
    public static byte[] program() throws IOException {
        try (InputStream in = SensorStatsJob.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IOException(RESOURCE + " is not on the classpath: the build compiles "
                        + "it (bin/build-tasklet, clang -target bpf)");
            }
            return in.readAllBytes();
        }
    }

    /** Loads the program onto {@code drive}, which verifies it; its instructions. */
    public static int load(SmartSsdDevice drive) throws IOException {
        return drive.loadProgram(PROGRAM, program(), true);
    }

    /** The device job over {@code input}, its groups merged into {@code output}. */
    public static DeviceJob job(Configuration conf, Path input, Path output, long from, long to)
            throws IOException {
        DeviceJob job = DeviceJob.getInstance(conf, "sensor stats [" + from + ", " + to + ")");
        job.setJarByClass(SensorStatsJob.class);
        job.setDeviceProgram(new BpfProgram(PROGRAM, new long[] {from, to}, 0, GROUP_SLOTS, 0,
                0), LAYOUT);
        job.setDeviceMapperFormat(ProgramGroupsFormat.class);
        job.setCombinerClass(AggregateReducer.class);
        job.setReducerClass(AggregateReducer.class);
        job.setNumReduceTasks(1);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        job.addInputPath(input);
        FileOutputFormat.setOutputPath(job, output);
        return job;
    }

    /** The job's output: group 2s (temperatures) and 2s+1 (their squares) of sensor s. */
    public static Result read(Configuration conf, Path output) throws IOException {
        Map<Long, AggregateWritable> groups = new TreeMap<>();
        FileSystem fs = output.getFileSystem(conf);
        for (FileStatus st : fs.listStatus(output, p -> p.getName().startsWith("part-"))) {
            try (SequenceFile.Reader r = new SequenceFile.Reader(conf,
                    SequenceFile.Reader.file(st.getPath()))) {
                LongPairWritable k = new LongPairWritable();
                AggregateWritable v = new AggregateWritable();
                while (r.next(k, v)) {
                    if (groups.put(k.first(), v) != null) {
                        throw new IOException(output + ": group " + k.first() + " twice");
                    }
                    v = new AggregateWritable();
                }
            }
        }
        AggregateWritable bad = groups.remove(CORRUPT);
        Map<Long, SensorStats> sensors = new TreeMap<>();
        for (Map.Entry<Long, AggregateWritable> e : groups.entrySet()) {
            if ((e.getKey() & 1) != 0) {
                continue;
            }
            AggregateWritable t = e.getValue();
            AggregateWritable sq = groups.get(e.getKey() + 1);
            if (sq == null || sq.count() != t.count()) {
                throw new IOException(output + ": sensor " + e.getKey() / 2 + " has "
                        + t.count() + " temperatures but " + (sq == null ? 0 : sq.count())
                        + " squares");
            }
            sensors.put(e.getKey() / 2, new SensorStats(e.getKey() / 2, t.count(), t.sum(),
                    sq.sum(), t.min(), t.max()));
        }
        return new Result(sensors, bad == null ? 0 : bad.count());
    }

    @Override
    public int run(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: SensorStatsJob INPUT OUTPUT FROM TO");
            return 2;
        }
        Path input = new Path(args[0]);
        Path output = new Path(args[1]);
        Configuration conf = getConf();
        int insns = load(DeviceAccess.fileSystem(input, conf).device());
        System.out.println("loaded " + PROGRAM + ": " + insns + " instructions, verified");
        DeviceJob job = job(conf, input, output, Long.parseLong(args[2]),
                Long.parseLong(args[3]));
        if (!job.waitForCompletion(true)) {
            System.err.println("job failed: " + job.failureReason());
            return 1;
        }
        Result r = read(conf, output);
        r.sensors().values().forEach(System.out::println);
        System.out.println(r.corrupt() + " records failed their check");
        return 0;
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(new Configuration(), new SensorStatsJob(), args));
    }
}
