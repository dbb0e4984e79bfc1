package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;

/**
 * Two JVMs on one drive through smartssd-devd: each sees the other's files at once (the file
 * system caches no namespace).
 */
class TwoJvmTest {
    @Test
    void filesOfOneJvmAreListedAndReadByTheOther(@TempDir Path dir) throws Exception {
        Path img = dir.resolve("two.img");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 0);
        try (Devd devd = Devd.start(img, dir.resolve("two.sock"), Duration.ofSeconds(30))) {
            Configuration conf = new Configuration();
            conf.set("smartssd.device.two.uri", devd.uri());
            try (FileSystem fs = FileSystem.newInstance(URI.create("smartssd://two/"), conf)) {
                List<String> expected = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    byte[] data = FsTestSupport.data(100_000 * i + 17, i);
                    try (FSDataOutputStream out = fs.create(
                            new org.apache.hadoop.fs.Path("/shared/f" + i))) {
                        out.write(data);
                    }
                    CRC32 crc = new CRC32();
                    crc.update(data);
                    expected.add("FILE f" + i + " " + data.length + " " + crc.getValue());
                }
                // this instance has listed /shared before the peer writes into it
                assertThat(fs.listStatus(new org.apache.hadoop.fs.Path("/shared"))).hasSize(4);

                String text = "written by the second JVM";
                List<String> out = runPeer(dir, devd.uri(), text);
                assertThat(out).filteredOn(l -> l.startsWith("FILE "))
                        .containsExactlyInAnyOrderElementsOf(expected);
                assertThat(out).contains("DONE");

                FileStatus[] now = fs.listStatus(new org.apache.hadoop.fs.Path("/shared"));
                assertThat(now).extracting(s -> s.getPath().getName()).contains("from-peer")
                        .hasSize(5);
                try (FSDataInputStream in = fs.open(
                        new org.apache.hadoop.fs.Path("/shared/from-peer"))) {
                    assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                            .isEqualTo(text);
                }
            }
        }
    }

    private static List<String> runPeer(Path dir, String uri, String text) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-cp",
                System.getProperty("java.class.path")));
        for (String prop : new String[] {"smartssd.native.build", "smartssd.native.path"}) {
            String v = System.getProperty(prop);
            if (v != null) {
                cmd.add("-D" + prop + "=" + v);
            }
        }
        cmd.addAll(List.of(PeerMain.class.getName(), uri, text));
        // its output to a file: reading a pipe to its end would wait without a bound
        Path out = Files.createTempFile(dir, "peer", ".out");
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectOutput(out.toFile()).start();
        boolean done = p.waitFor(300, TimeUnit.SECONDS);   // a hang detector, not a speed goal
        if (!done) {
            p.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        if (!done) {
            throw new AssertionError("the second JVM did not finish within 300 s: " + stdout);
        }
        assertThat(p.exitValue()).as("second JVM exit; its output: " + stdout).isZero();
        return List.of(stdout.split(File.separator.equals("/") ? "\n" : "\r?\n"));
    }
}
