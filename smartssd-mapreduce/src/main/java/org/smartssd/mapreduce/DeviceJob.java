package org.smartssd.mapreduce;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.ReflectionUtils;
import org.smartssd.device.InputRange;
import org.smartssd.device.Reason;
import org.smartssd.device.SmartSsdException;
import org.smartssd.device.TaskletFailedException;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.tasklet.BpfProgram;
import org.smartssd.scan.DeviceAccess;
import org.smartssd.scan.LoadedPrograms;
import org.smartssd.scan.Placement;
import org.smartssd.scan.ScanConf;
import org.smartssd.scan.TaskletRun;

/**
 * A MapReduce job whose map phase runs inside the drive (Kang §6.4.2). It is configured and
 * submitted like any {@link Job} (Tool/ToolRunner, {@code -D} options, reducers, output
 * formats, LocalJobRunner or YARN), but instead of an InputFormat and a host map function it
 * names a {@link DeviceMapper} (one tasklet, its static parameters and record layout) and a
 * {@link DeviceMapperFormat} (the tasklet's output object to key/value pairs for the reduce).
 *
 * <pre>{@code
 * DeviceJob job = DeviceJob.getInstance(getConf(), "requests per region");
 * job.setDeviceMapper(GroupAggregate.groupBy(1).value(0).ops(Op.COUNT, Op.SUM)
 *         .spec(layout, 64 * 1024, 0));
 * job.setDeviceMapperFormat(AggregateFormat.class);
 * job.setCombinerClass(AggregateReducer.class);
 * job.setReducerClass(AggregateReducer.class);
 * job.addInputPath(new Path("smartssd://dev0/logs/wc98.bin"));
 * FileOutputFormat.setOutputPath(job, out);
 * job.waitForCompletion(true);   // counters: DeviceCounters
 * }</pre>
 *
 * <p>Before submitting, the tasklet runs once over the first page of the first split
 * ({@value #PREFLIGHT}, default true): a spec the drive refuses fails the submission with
 * the drive's reason, on any runner.
 */
public class DeviceJob extends Job {
    /** Where {@link #setDeviceMapper(TaskletSpec)} stores the spec ({@code .id}, ...). */
    public static final String TASKLET_PREFIX = "smartssd.mapreduce.tasklet";
    /** The {@link DeviceMapper} class. */
    public static final String MAPPER_CLASS = "smartssd.mapreduce.device.mapper.class";
    /** The {@link DeviceMapperFormat} class. */
    public static final String FORMAT_CLASS = "smartssd.mapreduce.device.mapper.format.class";
    /** Drive folder for the tasklets' output objects; each is removed after its task. */
    public static final String SCRATCH_DIR = ScanConf.SCRATCH_DIR;
    public static final String SCRATCH_DIR_DEFAULT = ScanConf.SCRATCH_DIR_DEFAULT;
    /** Longest a tasklet run may take (a time duration, default 1h). */
    public static final String TASKLET_TIMEOUT = ScanConf.TASKLET_TIMEOUT;
    /** Whether submit() first runs the tasklet over one page (default true). */
    public static final String PREFLIGHT = "smartssd.mapreduce.preflight";
    /** Whose CPU time is the host energy of a map: THREAD or PROCESS (default: THREAD on the
     *  LocalJobRunner, where tasks share a JVM; PROCESS otherwise). */
    public static final String ENERGY_SCOPE = "smartssd.mapreduce.energy.scope";

    @SuppressWarnings("deprecation")
    protected DeviceJob(Configuration conf, String name) throws IOException {
        super(conf, name);
        setInputFormatClass(DeviceInputFormat.class);
        setMapperClass(DeviceMapRunner.class);
    }

    public static DeviceJob getInstance(Configuration conf) throws IOException {
        return new DeviceJob(conf, null);
    }

    public static DeviceJob getInstance(Configuration conf, String name) throws IOException {
        return new DeviceJob(conf, name);
    }

    /** Runs this fixed tasklet over every split (stored in the job configuration). */
    public DeviceJob setDeviceMapper(TaskletSpec spec) {
        TaskletSpecs.store(getConfiguration(), TASKLET_PREFIX, spec);
        return setDeviceMapperClass(DeviceMapper.Configured.class);
    }

    /**
     * Runs an eBPF program loaded on the drives ({@code smartssd tasklet load}) over every
     * split, its records cut by {@code layout}: the bpf tasklet with the program's name, its
     * arguments and tables ({@link BpfProgram}). The program must be loaded on every drive the
     * inputs are on: the preflight checks that ({@link TaskletFailedException}, failure
     * {@code PROGRAM_NOT_LOADED}) and runs
     * it once, so a program the drive refuses for this layout fails {@code submit()} with a
     * a {@link SmartSsdException} of reason {@code PROGRAM_REFUSED}. Read its output with {@link ProgramGroupsFormat},
     * {@link ProgramRecordsFormat}, {@link ProgramCountersFormat} or a format of your own
     * ({@link BpfProgram#decode}).
     */
    public DeviceJob setDeviceProgram(BpfProgram program, RecordLayout layout) {
        return setDeviceMapper(program.spec(layout, 0));
    }

    /** A mapper class that computes the tasklet in the task from the configuration. */
    public DeviceJob setDeviceMapperClass(Class<? extends DeviceMapper> cls) {
        getConfiguration().setClass(MAPPER_CLASS, cls, DeviceMapper.class);
        return this;
    }

    /**
     * The format of the map outputs; also sets the map output key and value classes, and the
     * job output classes to the same (change them after this call when the reduce differs).
     */
    public DeviceJob setDeviceMapperFormat(Class<? extends DeviceMapperFormat<?, ?>> cls) {
        getConfiguration().setClass(FORMAT_CLASS, cls, DeviceMapperFormat.class);
        DeviceMapperFormat<?, ?> f = ReflectionUtils.newInstance(cls, getConfiguration());
        setMapOutputKeyClass(f.keyClass());
        setMapOutputValueClass(f.valueClass());
        setOutputKeyClass(f.keyClass());
        setOutputValueClass(f.valueClass());
        return this;
    }

    /**
     * Where the splits run ({@link Placement}, key {@value Placement#KEY}): in the drive, on
     * the host, or each where it is estimated to finish first. Host and auto need
     * {@link #setHostMapper}.
     */
    public DeviceJob setPlacement(Placement placement) {
        getConfiguration().set(Placement.KEY, placement.cliName());
        return this;
    }

    /**
     * The map's host version, for splits placed on the host: a mapper over the split's
     * fixed-size records (LongWritable offset, BytesWritable record, as Hadoop's
     * FixedLengthInputFormat gives them) that emits the device format's key and value
     * classes, so one reduce merges both sides' outputs.
     */
    @SuppressWarnings("rawtypes")
    public DeviceJob setHostMapper(Class<? extends Mapper> cls) {
        getConfiguration().setClass(Placement.HOST_MAPPER_CLASS, cls, Mapper.class);
        return this;
    }

    /**
     * Makes this a job over Parquet files (a file, or a folder of them as Spark writes one):
     * splits of consecutive row groups up to Hadoop's split size, each running {@code query}
     * in the drive as few parquet-scan runs as the plan allows
     * ({@link ParquetRowGroupInputFormat}); no DeviceMapper or format is needed. AGGREGATE
     * gives (key1, key2) → {@link AggregateWritable} (reduce and combine with
     * {@link AggregateReducer}), ROWS (split start, row) → {@link org.apache.hadoop.io.Text}.
     * Row groups the drive refuses (a codec other than SNAPPY or UNCOMPRESSED, a row group
     * larger than its memory, say) are read on the host with parquet-mr, with the same
     * answer.
     */
    public DeviceJob setParquetScan(ParquetQuery query) {
        query.store(getConfiguration());
        setInputFormatClass(ParquetRowGroupInputFormat.class);
        setMapperClass(Mapper.class);
        Class<? extends org.apache.hadoop.io.Writable> value =
                query.mode() == org.smartssd.scan.parquet.ParquetScanPlan.Mode.AGGREGATE
                        ? AggregateWritable.class : org.apache.hadoop.io.Text.class;
        setMapOutputKeyClass(LongPairWritable.class);
        setMapOutputValueClass(value);
        setOutputKeyClass(LongPairWritable.class);
        setOutputValueClass(value);
        return this;
    }

    /** Adds a {@code smartssd://} input file or folder. */
    public DeviceJob addInputPath(Path path) throws IOException {
        FileInputFormat.addInputPath(this, path);
        return this;
    }

    public static Class<? extends DeviceMapper> getDeviceMapperClass(Configuration conf) {
        return conf.getClass(MAPPER_CLASS, DeviceMapper.Configured.class, DeviceMapper.class);
    }

    public static Class<? extends DeviceMapperFormat> getDeviceMapperFormatClass(
            Configuration conf) throws IOException {
        Class<? extends DeviceMapperFormat> c = conf.getClass(FORMAT_CLASS, null,
                DeviceMapperFormat.class);
        if (c == null) {
            throw new IOException(FORMAT_CLASS + " is not set: call "
                    + "DeviceJob.setDeviceMapperFormat");
        }
        return c;
    }

    static String scratchDir(Configuration conf) {
        return ScanConf.scratchDir(conf);
    }

    static Duration taskletTimeout(Configuration conf) {
        return ScanConf.taskletTimeout(conf);
    }

    /** Runs the preflight (unless turned off), then submits as {@link Job#submit} does. */
    @Override
    public void submit() throws IOException, InterruptedException, ClassNotFoundException {
        if (ParquetQuery.load(getConfiguration()) != null) {
            super.submit(); // a Parquet scan: the drive checks each row group's plan in its task
            return;
        }
        getDeviceMapperFormatClass(getConfiguration());
        if (getConfiguration().getBoolean(PREFLIGHT, true)) {
            preflight();
        }
        super.submit();
    }

    /**
     * Runs the job's tasklet over the first page of the first non-empty split, so that the
     * drive checks its parameters (they are checked when a run starts) before any task.
     *
     * @throws IOException with the drive's reason when it refuses the tasklet
     */
    public void preflight() throws IOException, InterruptedException {
        Configuration conf = getConfiguration();
        TaskletSpec spec = ReflectionUtils.newInstance(getDeviceMapperClass(conf), conf)
                .tasklet(conf);
        List<FileSplit> splits = new DeviceInputFormat().extentSplits(this);
        String program = BpfProgram.nameIn(spec);
        if (program != null) {
            // a cache split's scan reports a missing program in its task
            LoadedPrograms.require(program, splits.stream().map(FileSplit::getPath)
                    .filter(p -> !DeviceInputFormat.isCached(p)).toList(), conf);
        }
        for (FileSplit fs : splits) {
            if (fs.getLength() == 0 || DeviceInputFormat.isCached(fs.getPath())) {
                continue;   // a cache split's scan refuses a bad spec in its task
            }
            DeviceAccess target = DeviceAccess.of(fs.getPath(), conf);
            String out = scratchDir(conf) + "/preflight-" + UUID.randomUUID() + ".out";
            long probe = Math.min(fs.getLength(), target.device().info().pageSize());
            try (TaskletRun run = TaskletRun.start(target.device(), spec,
                    new InputRange(target.stat().oid(), fs.getStart(), probe), out,
                    taskletTimeout(conf), null)) {
                while (!run.finished()) {
                    run.next(Duration.ofSeconds(1));
                }
            } catch (IOException e) {
                throw preflightFailure(e, program, spec, fs.getPath());
            }
            return;
        }
    }

    /**
     * Why the job failed, as far as the runner tells: the job's failure info and the
     * diagnostics of failed task attempts (YARN keeps them; the LocalJobRunner does not, its
     * task errors are in its log). Empty when the job did not fail.
     */
    public String failureReason() throws IOException, InterruptedException {
        JobStatus st = getStatus();
        if (st.getState() != JobStatus.State.FAILED) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        String info = st.getFailureInfo();
        if (info != null && !info.isEmpty() && !"NA".equals(info)) {
            sb.append(info);
        }
        int from = 0;
        for (;;) {
            TaskCompletionEvent[] events = getTaskCompletionEvents(from, 100);
            if (events == null || events.length == 0) {
                break;
            }
            for (TaskCompletionEvent e : events) {
                if (e.getStatus() == TaskCompletionEvent.Status.FAILED) {
                    for (String d : getTaskDiagnostics(e.getTaskAttemptId())) {
                        sb.append(sb.length() == 0 ? "" : "\n").append(e.getTaskAttemptId())
                                .append(": ").append(d);
                    }
                }
            }
            from += events.length;
        }
        return sb.toString().toLowerCase(Locale.ROOT).equals("na") ? "" : sb.toString();
    }

    /** A program the drive lacks passes as it is; one it refused is named; else wrapped. */
    private IOException preflightFailure(IOException e, String program, TaskletSpec spec,
                                         Path path) {
        if (e instanceof TaskletFailedException t
                && t.failure() == TaskletFailedException.Failure.PROGRAM_NOT_LOADED) {
            return e;
        }
        if (e instanceof SmartSsdException s && s.reason() == Reason.PROGRAM_REFUSED) {
            SmartSsdException named = new SmartSsdException("device job '" + getJobName()
                    + "': the drive refused program '" + program + "' for the records of "
                    + path + ": " + e.getMessage(), s.errno(), s.reasonCode());
            named.initCause(e);
            return named;
        }
        return new IOException("device job '" + getJobName() + "': the drive refused tasklet "
                + spec.taskletId() + " on " + path + ": " + e.getMessage(), e);
    }
}
