package org.smartssd.loganalyzer.host;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.smartssd.loganalyzer.Answer;
import org.smartssd.loganalyzer.Engine;
import org.smartssd.loganalyzer.Mode;
import org.smartssd.loganalyzer.Query;
import org.smartssd.loganalyzer.Region;
import org.smartssd.loganalyzer.TraceReader;
import org.smartssd.loganalyzer.TypeCount;

/**
 * The host versions of Q1 and Q2 as MapReduce jobs over any Hadoop file system
 * ({@code smartssd://} for the comparison, {@code file://} works the same). Entries are read
 * with Hadoop's {@link FixedLengthInputFormat}; the reduce writes a SequenceFile that
 * {@link #run} reads back into an {@link Answer}.
 */
public final class HostJob {
    /** What a run answered and what Hadoop counted. */
    public record Result(Answer answer, long inputRecords, long mapOutputRecords,
                         long mapOutputBytes, long bytesRead) {
    }

    private HostJob() {
    }

    /**
     * Runs one host version to completion.
     *
     * @param conf      Hadoop configuration (file systems, framework); copied, not changed
     * @param input     the entries, {@code entrySize} bytes each
     * @param outputDir where the reduce writes; must not exist
     */
    public static Result run(Configuration conf, Query query, Mode mode, Path input,
                             int entrySize, Path outputDir)
            throws IOException, InterruptedException {
        if (!mode.onHost() || mode.engine() != Engine.MAPREDUCE) {
            throw new IllegalArgumentException(mode.cliName() + " is not a host MapReduce version");
        }
        TraceReader.checkEntrySize(entrySize);
        Job job = Job.getInstance(new Configuration(conf),
                "loganalyzer " + query.cliName() + " " + mode.cliName());
        job.setJarByClass(HostJob.class);
        FixedLengthInputFormat.setRecordLength(job.getConfiguration(), entrySize);
        job.setInputFormatClass(FixedLengthInputFormat.class);
        FileInputFormat.addInputPath(job, input);
        job.setMapperClass(mapper(query, mode));
        job.setReducerClass(reducer(query));
        job.setMapOutputValueClass(valueClass(query));
        job.setOutputValueClass(valueClass(query));
        job.setMapOutputKeyClass(IntWritable.class);
        job.setOutputKeyClass(IntWritable.class);
        job.setNumReduceTasks(1);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileOutputFormat.setOutputPath(job, outputDir);
        boolean ok;
        try {
            ok = job.waitForCompletion(false);
        } catch (ClassNotFoundException e) {
            throw new IOException("job '" + job.getJobName() + "': a job class is missing from "
                    + "the classpath: " + e.getMessage(), e);
        }
        if (!ok) {
            throw new IOException("job '" + job.getJobName() + "' over " + input + " failed: "
                    + job.getStatus().getFailureInfo());
        }
        Counters c = job.getCounters();
        Answer answer = readAnswer(job.getConfiguration(), query, outputDir);
        return new Result(answer, c.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue(),
                c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue(),
                c.findCounter(TaskCounter.MAP_OUTPUT_BYTES).getValue(),
                c.findCounter(FileInputFormatCounter.BYTES_READ).getValue());
    }

    /** The map of a host version: one output per record, or combined in memory. */
    @SuppressWarnings("rawtypes")
    public static Class<? extends Mapper> mapper(Query query, Mode mode) {
        boolean optimized = mode == Mode.HOST_OPTIMIZED;
        if (query == Query.Q1) {
            return optimized ? CombiningRegionMapper.class : RegionMapper.class;
        }
        return optimized ? CombiningRegionTypeMapper.class : RegionTypeMapper.class;
    }

    /** The host versions' reduce: counts summed (Q1), or summed and ranked (Q2). */
    @SuppressWarnings("rawtypes")
    public static Class<? extends Reducer> reducer(Query query) {
        return query == Query.Q1 ? SumReducer.class : TopTypesReducer.class;
    }

    /** The map output and job output value class; keys are IntWritable regions. */
    public static Class<? extends Writable> valueClass(Query query) {
        return query == Query.Q1 ? LongWritable.class : TypeCountWritable.class;
    }

    /** The answer a host reduce (SumReducer, TopTypesReducer) wrote into {@code dir}. */
    public static Answer readAnswer(Configuration conf, Query query, Path dir)
            throws IOException {
        return query == Query.Q1 ? readQ1(conf, dir) : readQ2(conf, dir);
    }

    private static Answer readQ1(Configuration conf, Path dir) throws IOException {
        long[] perRegion = new long[Region.CODES];
        for (Path p : parts(conf, dir)) {
            try (SequenceFile.Reader r = new SequenceFile.Reader(conf,
                    SequenceFile.Reader.file(p))) {
                IntWritable k = new IntWritable();
                LongWritable v = new LongWritable();
                while (r.next(k, v)) {
                    perRegion[k.get()] += v.get();
                }
            }
        }
        return Answer.q1(perRegion);
    }

    private static Answer readQ2(Configuration conf, Path dir) throws IOException {
        Map<Integer, List<TypeCount>> rows = new TreeMap<>();
        for (Path p : parts(conf, dir)) {
            try (SequenceFile.Reader r = new SequenceFile.Reader(conf,
                    SequenceFile.Reader.file(p))) {
                IntWritable k = new IntWritable();
                TypeCountWritable v = new TypeCountWritable();
                while (r.next(k, v)) {
                    rows.computeIfAbsent(k.get(), x -> new ArrayList<>())
                            .add(new TypeCount(v.type(), v.count()));
                }
            }
        }
        return Answer.q2(rows);
    }

    private static List<Path> parts(Configuration conf, Path dir) throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        FileStatus[] st = fs.listStatus(dir, p -> p.getName().startsWith("part-"));
        Arrays.sort(st);
        List<Path> out = new ArrayList<>();
        for (FileStatus s : st) {
            out.add(s.getPath());
        }
        return out;
    }
}
