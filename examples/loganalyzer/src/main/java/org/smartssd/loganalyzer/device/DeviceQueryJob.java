package org.smartssd.loganalyzer.device;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.loganalyzer.Answer;
import org.smartssd.loganalyzer.FileType;
import org.smartssd.loganalyzer.Query;
import org.smartssd.loganalyzer.Region;
import org.smartssd.loganalyzer.TraceReader;
import org.smartssd.loganalyzer.WorldCupLayout;
import org.smartssd.mapreduce.AggregateFormat;
import org.smartssd.mapreduce.AggregateReducer;
import org.smartssd.mapreduce.AggregateWritable;
import org.smartssd.mapreduce.DeviceCounters;
import org.smartssd.mapreduce.DeviceJob;
import org.smartssd.mapreduce.LongPairWritable;

/**
 * The device version of Q1 and Q2: a {@link DeviceJob} whose map is the drive's
 * group-aggregate tasklet, COUNT grouped by region (Q1) or by (region, type) (Q2), over the
 * entries in place on the drive. Only the groups cross the link; the host merges the
 * partials exactly ({@link AggregateReducer}) and, for Q2, ranks the types.
 */
public final class DeviceQueryJob {
    /**
     * Bytes of tasklet memory per group: two keys, four aggregates and two index slots
     * (tasklets/group_agg.c and groups.c), rounded up.
     */
    static final int BYTES_PER_GROUP = 64;
    /** Types per region the Q2 table holds: 8 x 32 x 64 B + 4 KiB = 20 KiB of SRAM. */
    static final int Q2_TYPES_IN_SRAM = 32;

    /** What a run answered and what the job counted. */
    public record Result(Answer answer, long recordsScanned, long pagesScanned,
                         long mapOutputRecords, long outputBytes, long deviceInstructions,
                         long deviceDramAccesses) {
    }

    private DeviceQueryJob() {
    }

    /**
     * The tasklet of a query over entries of {@code entrySize} bytes. The group table holds
     * every region (Q1), or 32 types per region (Q2: the trace defines 13 file types): small
     * enough to live in the drive controller's SRAM (SS_ISP_SRAM_STATE_BYTES, 24 KiB), where
     * the drive charges a cycle per access instead of a DRAM access. Rarer groups beyond the
     * table spill as partial aggregates, which the host reduce merges exactly.
     */
    public static TaskletSpec tasklet(Query q, int entrySize) {
        int groups = q == Query.Q1 ? Region.CODES : Region.CODES * Q2_TYPES_IN_SRAM;
        GroupAggregate agg = (q == Query.Q1 ? GroupAggregate.groupBy(WorldCupLayout.REGION)
                : GroupAggregate.groupBy(WorldCupLayout.REGION, WorldCupLayout.TYPE))
                .maxGroups(groups);
        return agg.spec(WorldCupLayout.of(entrySize), groups * BYTES_PER_GROUP + 4096, 0);
    }

    /**
     * Runs the query in the drive holding {@code input} (a {@code smartssd://} file).
     *
     * @param outputDir where the host reduce writes; must not exist
     */
    public static Result run(Configuration conf, Query q, Path input, int entrySize,
                             Path outputDir) throws IOException, InterruptedException {
        TraceReader.checkEntrySize(entrySize);
        DeviceJob job = DeviceJob.getInstance(new Configuration(conf),
                "loganalyzer " + q.cliName() + " device");
        job.setJarByClass(DeviceQueryJob.class);
        job.setDeviceMapper(tasklet(q, entrySize));
        job.setDeviceMapperFormat(AggregateFormat.class);
        job.setReducerClass(AggregateReducer.class);
        complete(job, input, outputDir);
        Counters c = job.getCounters();
        long[][] counts = read(job.getConfiguration(), outputDir);
        Answer answer;
        if (q == Query.Q1) {
            long[] perRegion = new long[Region.CODES];
            for (int r = 0; r < Region.CODES; r++) {
                perRegion[r] = counts[r][0];
            }
            answer = Answer.q1(perRegion);
        } else {
            answer = Answer.q2(counts);
        }
        return new Result(answer, c.findCounter(DeviceCounters.RECORDS_SCANNED).getValue(),
                c.findCounter(DeviceCounters.PAGES_SCANNED).getValue(),
                c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue(),
                c.findCounter(DeviceCounters.OUTPUT_BYTES).getValue(),
                c.findCounter(DeviceCounters.DEVICE_INSTRUCTIONS).getValue(),
                c.findCounter(DeviceCounters.DEVICE_DRAM_ACCESSES).getValue());
    }

    /**
     * Runs a query's job to completion over {@code input}: one reduce, writing a SequenceFile
     * into {@code outputDir}.
     *
     * @throws IOException with the runner's reason when the job fails
     */
    static void complete(DeviceJob job, Path input, Path outputDir)
            throws IOException, InterruptedException {
        job.setNumReduceTasks(1);
        job.addInputPath(input);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileOutputFormat.setOutputPath(job, outputDir);
        boolean ok;
        try {
            ok = job.waitForCompletion(false);
        } catch (ClassNotFoundException e) {
            throw new IOException("device job: a job class is missing from the classpath: "
                    + e.getMessage(), e);
        }
        if (!ok) {
            String why = job.failureReason();
            throw new IOException("device job '" + job.getJobName() + "' over " + input
                    + " failed" + (why.isEmpty() ? "" : ": " + why));
        }
    }

    /** The merged groups: [region][type] counts (type 0 for Q1's single key). */
    private static long[][] read(Configuration conf, Path dir) throws IOException {
        long[][] counts = new long[Region.CODES][FileType.CODES];
        FileSystem fs = dir.getFileSystem(conf);
        FileStatus[] parts = fs.listStatus(dir, p -> p.getName().startsWith("part-"));
        Arrays.sort(parts);
        List<Path> paths = new ArrayList<>();
        for (FileStatus s : parts) {
            paths.add(s.getPath());
        }
        for (Path p : paths) {
            try (SequenceFile.Reader r = new SequenceFile.Reader(conf,
                    SequenceFile.Reader.file(p))) {
                LongPairWritable k = new LongPairWritable();
                AggregateWritable v = new AggregateWritable();
                while (r.next(k, v)) {
                    if (k.first() < 0 || k.first() >= Region.CODES || k.second() < 0
                            || k.second() >= FileType.CODES) {
                        throw new IOException(p + ": the drive returned group (" + k.first()
                                + ", " + k.second() + "), outside the region and type fields");
                    }
                    counts[(int) k.first()][(int) k.second()] += v.count();
                }
            }
        }
        return counts;
    }
}
