package org.smartssd.spark;

import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;

/**
 * The driver of the Spark standalone cluster check ({@code src/test/cluster/standalone.sh}
 * starts the master and one worker per host from the Spark distribution, then runs this
 * with {@code spark-submit}): {@code StandaloneClusterCheck MASTER_URL WORK_DIR HOST...}.
 *
 * <p>Each worker host owns a drive, served by its own smartssd-devd, with
 * {@code smartssd.device.cN.host} naming that host. A table spans a file on every drive. The
 * check waits until every worker has an executor, runs Q1 (accesses per region, the
 * aggregate pushed into the drives) and a pushed filter, and then asserts that every scan
 * task ran on its partition's drive's worker (each task's executor host, from a
 * {@link SparkListener}) and that both answers equal plain Java over the bytes written. It
 * prints {@code CHECK OK ...} and exits 0, or prints what differs and exits 1.
 */
public final class StandaloneClusterCheck {
    static final int PER_DRIVE = 40_000;
    static final String SPLIT = "262144";
    /** A hang detector: executors of a loaded 2-core machine register in minutes. */
    static final Duration EXECUTORS_WAIT = Duration.ofMinutes(10);

    private StandaloneClusterCheck() {
    }

    /** Scan tasks seen: stage id to (partition index to executor host). */
    static final Map<Integer, Map<Integer, String>> TASKS = new ConcurrentHashMap<>();
    static final Map<Integer, Integer> STAGE_TASKS = new ConcurrentHashMap<>();

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: StandaloneClusterCheck MASTER_URL WORK_DIR HOST...");
            System.exit(2);
        }
        String master = args[0];
        Path work = Path.of(args[1]);
        List<String> hosts = Arrays.asList(args).subList(2, args.length);
        List<Devd> devds = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        try {
            Map<String, String> drives = new HashMap<>();
            for (int i = 0; i < hosts.size(); i++) {
                Path image = work.resolve("c" + i + ".img");
                SmartSsdDevice.formatEmulated(image, null, 64L << 20, 0);
                Devd d = Devd.start(image, work.resolve("c" + i + ".sock"),
                        Duration.ofSeconds(60));
                devds.add(d);
                drives.put("smartssd.device.c" + i + ".uri", d.uri());
                drives.put("smartssd.device.c" + i + ".host", hosts.get(i));
            }
            SparkSession.Builder b = SparkSession.builder().master(master)
                    .appName("smartssd-standalone-check")
                    .config("spark.ui.enabled", "false")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.executor.cores", "1")
                    .config("spark.cores.max", String.valueOf(hosts.size()))
                    .config("spark.executor.memory", "512m")
                    // fewer reduce tasks than scan partitions: a stage's task count tells scans
                    .config("spark.sql.shuffle.partitions", "2")
                    // a task waits for its drive's worker instead of running anywhere
                    .config("spark.locality.wait", "120s");
            drives.forEach((k, v) -> b.config("spark.hadoop." + k, v));
            SparkSession spark = b.getOrCreate();
            try {
                run(spark, work, hosts, drives, failures);
            } finally {
                spark.stop();
            }
        } catch (Exception e) {
            e.printStackTrace();
            failures.add("failed: " + e);
        } finally {
            for (Devd d : devds) {
                d.close();
            }
        }
        if (!failures.isEmpty()) {
            failures.forEach(f -> System.out.println("CHECK FAILED " + f));
            System.exit(1);
        }
    }

    private static void run(SparkSession spark, Path work, List<String> hosts,
                            Map<String, String> drives, List<String> failures) throws Exception {
        awaitExecutors(spark, hosts);
        spark.sparkContext().addSparkListener(new SparkListener() {
            @Override
            public void onStageSubmitted(SparkListenerStageSubmitted s) {
                STAGE_TASKS.put(s.stageInfo().stageId(), s.stageInfo().numTasks());
            }

            @Override
            public void onTaskEnd(SparkListenerTaskEnd t) {
                TASKS.computeIfAbsent(t.stageId(), k -> new ConcurrentHashMap<>())
                        .put(t.taskInfo().index(), t.taskInfo().host());
            }
        });

        byte[] all = SparkDrive.wc98(hosts.size() * PER_DRIVE, 20, 99);
        // the connector's own Configuration: with --jars its classes are not where Hadoop's
        // service loading looks
        Configuration conf = new DriveConf(Map.copyOf(drives)).hadoop();
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            String p = "smartssd://c" + i + "/logs/day" + i;
            FileSystem fs = FileSystem.get(URI.create(p), conf);
            try (OutputStream out = fs.create(new org.apache.hadoop.fs.Path(p))) {
                out.write(Arrays.copyOfRange(all, i * PER_DRIVE * 20,
                        (i + 1) * PER_DRIVE * 20));
            }
            paths.add(p);
        }
        String[] expectedHost = plannedHosts(paths, drives, hosts, failures);
        System.out.println("CHECK partitions " + expectedHost.length + " on "
                + String.join(" ", expectedHost));

        Map<Long, Long> q1Expected = new TreeMap<>();
        long bigExpected = 0;
        for (int off = 0; off < all.length; off += 20) {
            q1Expected.merge((long) ((all[off + 19] & 0xff) >> 5), 1L, Long::sum);
            long size = Integer.toUnsignedLong(java.nio.ByteBuffer.wrap(all, off + 12, 4)
                    .getInt());
            if (size > 15_000) {
                bigExpected++;
            }
        }
        var df = spark.read().format("smartssd").option("layout", "wc98")
                .option("mapreduce.input.fileinputformat.split.maxsize", SPLIT)
                .load(paths.toArray(new String[0]));
        Map<Long, Long> q1 = new TreeMap<>();
        for (Row r : df.groupBy("region").count().collectAsList()) {
            q1.put(((Number) r.get(0)).longValue(), r.getLong(1));
        }
        if (!q1.equals(q1Expected)) {
            failures.add("Q1 " + q1 + " but plain Java counts " + q1Expected);
        }
        long big = df.filter("size > 15000").count();
        if (big != bigExpected) {
            failures.add("count(size > 15000) = " + big + " but plain Java counts "
                    + bigExpected);
        }
        checkHosts(expectedHost, failures);
        if (failures.isEmpty()) {
            System.out.println("CHECK OK " + q1.size() + " regions, " + bigExpected
                    + " large requests; every scan task of " + expectedHost.length
                    + " partitions ran on its drive's worker");
        }
    }

    /**
     * The host of each partition's drive (drive cN is on the N-th host), in partition order;
     * a partition whose preferred location is another host is a failure.
     */
    private static String[] plannedHosts(List<String> paths, Map<String, String> drives,
                                         List<String> workerHosts, List<String> failures) {
        Map<String, String> options = new HashMap<>(drives);
        options.put("layout", "wc98");
        options.put("mapreduce.input.fileinputformat.split.maxsize", SPLIT);
        options.put("paths", "[\"" + String.join("\", \"", paths) + "\"]");
        SmartSsdTable table = (SmartSsdTable) new SmartSsdDataSource().getTable(null,
                new Transform[0], options);
        InputPartition[] parts = table.newScanBuilder(new CaseInsensitiveStringMap(options))
                .build().toBatch().planInputPartitions();
        String[] hosts = new String[parts.length];
        for (int i = 0; i < parts.length; i++) {
            SmartSsdPartition p = (SmartSsdPartition) parts[i];
            String drive = URI.create(p.path()).getAuthority();
            hosts[i] = workerHosts.get(Integer.parseInt(drive.substring(1)));
            if (!List.of(p.preferredLocations()).equals(List.of(hosts[i]))) {
                failures.add("partition " + i + " of " + p.path() + " prefers "
                        + List.of(p.preferredLocations()) + ", its drive is on " + hosts[i]);
            }
        }
        return hosts;
    }

    /** Every stage with one task per partition is a scan stage: each task on its host. */
    private static void checkHosts(String[] expectedHost, List<String> failures) {
        int scanStages = 0;
        for (Map.Entry<Integer, Map<Integer, String>> s : new TreeMap<>(TASKS).entrySet()) {
            if (STAGE_TASKS.getOrDefault(s.getKey(), -1) != expectedHost.length) {
                continue;
            }
            scanStages++;
            Map<Integer, String> ran = s.getValue();
            for (int i = 0; i < expectedHost.length; i++) {
                String host = ran.get(i);
                System.out.println("CHECK stage " + s.getKey() + " partition " + i + " ran on "
                        + host + ", drive on " + expectedHost[i]);
                if (!expectedHost[i].equals(host)) {
                    failures.add("stage " + s.getKey() + " partition " + i + " ran on " + host
                            + ", its drive is on " + expectedHost[i]);
                }
            }
        }
        if (scanStages != 2) {
            failures.add(scanStages + " scan stages seen (Q1 and the filter make 2): " + TASKS);
        }
    }

    /**
     * Waits, bounded, until an executor runs on every worker host: each executor's
     * registration is signalled by the scheduler's {@code onExecutorAdded}; the executors
     * that registered before the listener are read once from the status tracker.
     */
    private static void awaitExecutors(SparkSession spark, List<String> hosts)
            throws InterruptedException {
        Set<String> seen = new java.util.TreeSet<>();
        spark.sparkContext().addSparkListener(new SparkListener() {
            @Override
            public void onExecutorAdded(SparkListenerExecutorAdded e) {
                synchronized (seen) {
                    seen.add(e.executorInfo().executorHost());
                    seen.notifyAll();
                }
            }
        });
        long deadline = System.nanoTime() + EXECUTORS_WAIT.toNanos();
        synchronized (seen) {
            for (var e : spark.sparkContext().statusTracker().getExecutorInfos()) {
                seen.add(e.host());
            }
            while (!seen.containsAll(hosts)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException("waited " + EXECUTORS_WAIT + " for an"
                            + " executor on each of " + hosts + "; executors on " + seen);
                }
                seen.wait(Math.max(1, left / 1_000_000));
            }
            System.out.println("CHECK executors on " + seen);
        }
    }
}
