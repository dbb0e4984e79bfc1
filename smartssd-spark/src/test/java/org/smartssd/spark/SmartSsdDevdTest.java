package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;

/**
 * Executors in other JVMs: a Spark {@code local-cluster} (driver and two executors, three
 * processes besides this one) answers Q1 over a drive served by smartssd-devd, with the
 * aggregate pushed into the drive, and the answer equals the count of the bytes written.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("full")
class SmartSsdDevdTest {
    static final int RECORDS = 50_000;
    /** A hang detector, not a speed goal: at load 28 on 2 cores the local cluster's
     *  executors took 1.75 min to register and the job ran past 4 min (the 50-round loop). */
    static final Duration CHILD_LIMIT = Duration.ofMinutes(15);

    @TempDir
    static Path dir;
    Devd devd;
    byte[] data;

    @BeforeAll
    void startDrive() throws Exception {
        Path image = dir.resolve("d1.img");
        SmartSsdDevice.formatEmulated(image, null, 256L << 20, 0);
        devd = Devd.start(image, dir.resolve("d1.sock"), Duration.ofSeconds(30));
        data = SparkDrive.wc98(RECORDS, 20, 21);
        Configuration conf = new Configuration();
        conf.set("smartssd.device.d1.uri", devd.uri());
        FileSystem fs = FileSystem.newInstance(URI.create("smartssd://d1/"), conf);
        try (OutputStream out = fs.create(new org.apache.hadoop.fs.Path("/logs/day1"))) {
            out.write(data);
        }
        fs.close();
    }

    @AfterAll
    void stopDrive() throws Exception {
        if (devd != null) {
            devd.close();
        }
    }

    @Test
    void localClusterExecutorsAnswerQ1ThroughTheDaemon() throws Exception {
        Path home = Files.createDirectories(dir.resolve("spark-home"));
        Path log = dir.resolve("child.out");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String o : System.getProperty("spark.jdk17.opens", "").split(" ")) {
            if (!o.isBlank()) {
                cmd.add(o);
            }
        }
        cmd.addAll(List.of("-Xmx512m", "-Dspark.testing=true", "-Dspark.test.home=" + home,
                "-cp", System.getProperty("java.class.path"), LocalClusterQ1.class.getName(),
                devd.uri(), "smartssd://d1/logs/day1"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // executors get this JVM's class path (spark.testing) and need no Spark build
        pb.environment().put("SPARK_HOME", home.toString());
        pb.environment().put("SPARK_TESTING", "1");
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        Process p = pb.start();
        boolean done = p.waitFor(CHILD_LIMIT.toSeconds(), TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(done).as("local-cluster Q1 finished within %s; output:%n%s", CHILD_LIMIT,
                out).isTrue();
        assertThat(p.exitValue()).as("exit code; output:%n%s", out).isZero();

        Map<Integer, Long> expected = new TreeMap<>();
        for (int off = 0; off < data.length; off += 20) {
            expected.merge((data[off + 19] & 0xff) >> 5, 1L, Long::sum);
        }
        Map<Integer, Long> got = new TreeMap<>();
        String driver = null;
        String pids = null;
        String plan = null;
        for (String line : out.split("\n")) {
            if (line.startsWith("ROW ")) {
                String[] f = line.split(" ");
                got.put(Integer.parseInt(f[1]), Long.parseLong(f[2].trim()));
            } else if (line.startsWith("DRIVER ")) {
                driver = line.substring(7).trim();
            } else if (line.startsWith("PIDS ")) {
                pids = line.substring(5).trim();
            } else if (line.startsWith("PLAN ")) {
                plan = line;
            }
        }
        assertThat(got).as("output:%n%s", out).isEqualTo(expected);
        assertThat(plan).contains("PushedAggregates: [COUNT(*)]").contains("drive: d1");
        // two executor processes, neither of them the driver nor this JVM
        String[] executors = pids.replaceAll("[\\[\\]]", "").split(",\\s*");
        assertThat(executors).hasSize(2).doesNotContain(driver,
                String.valueOf(ProcessHandle.current().pid()));
        assertThat(new File(dir.toFile(), "d1.sock")).exists();
    }
}
