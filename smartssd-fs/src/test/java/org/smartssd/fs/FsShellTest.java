package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hadoop's FsShell, in-process, over smartssd://. */
class FsShellTest {
    private static final String ROOT = "smartssd://shell";
    private static Configuration conf;
    private static FileSystem fs;

    @BeforeAll
    static void open() throws IOException {
        conf = FsTestSupport.embeddedConf();
        fs = FileSystem.get(java.net.URI.create(ROOT + "/"), conf);
    }

    @AfterAll
    static void close() throws IOException {
        fs.close();
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run shell(String... args) throws Exception {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            System.setOut(o);
            System.setErr(e);
            rc = ToolRunner.run(conf, new FsShell(conf), args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static List<String> lines(String s) {
        return Arrays.stream(s.split("\n")).filter(l -> !l.isBlank()).collect(Collectors.toList());
    }

    @Test
    void putListCatMoveDuChecksumRemove(@TempDir Path local) throws Exception {
        Path dir = Files.createDirectories(local.resolve("logs"));
        String a = "GET /index.html 200\nGET /missing 404\n";
        byte[] b = FsTestSupport.data(70_000, 9);
        Files.writeString(dir.resolve("a.log"), a);
        Files.write(dir.resolve("b.bin"), b);

        Run put = shell("-put", dir.toString(), ROOT + "/in");
        assertThat(put.exit()).as(put.err()).isZero();

        Run ls = shell("-ls", "-R", ROOT + "/");
        assertThat(ls.exit()).as(ls.err()).isZero();
        List<String> entries = lines(ls.out());
        assertThat(entries).hasSize(3);
        assertThat(entries).anySatisfy(l -> assertThat(l).startsWith("d")
                .endsWith(ROOT + "/in"));
        assertThat(entries).anySatisfy(l -> assertThat(l).startsWith("-")
                .contains(" " + a.length() + " ").endsWith(ROOT + "/in/a.log"));
        assertThat(entries).anySatisfy(l -> assertThat(l).startsWith("-")
                .contains(" " + b.length + " ").endsWith(ROOT + "/in/b.bin"));

        Run cat = shell("-cat", ROOT + "/in/a.log");
        assertThat(cat.exit()).isZero();
        assertThat(cat.out()).isEqualTo(a);

        Run du = shell("-du", ROOT + "/in");
        assertThat(du.exit()).isZero();
        assertThat(lines(du.out()).stream().map(l -> l.trim().replaceAll("\\s+", " ")))
                .containsExactlyInAnyOrder(a.length() + " " + a.length() + " " + ROOT + "/in/a.log",
                        b.length + " " + b.length + " " + ROOT + "/in/b.bin");

        Run mv = shell("-mv", ROOT + "/in/a.log", ROOT + "/moved.log");
        assertThat(mv.exit()).as(mv.err()).isZero();
        assertThat(shell("-test", "-e", ROOT + "/in/a.log").exit()).isEqualTo(1);
        assertThat(shell("-cat", ROOT + "/moved.log").out()).isEqualTo(a);

        // no file checksum: the drive computes none, and FsShell says so
        Run sum = shell("-checksum", ROOT + "/moved.log");
        assertThat(sum.exit()).isZero();
        assertThat(sum.out()).contains(ROOT + "/moved.log").contains("NONE");

        Run get = shell("-get", ROOT + "/in/b.bin", local.resolve("b.copy").toString());
        assertThat(get.exit()).as(get.err()).isZero();
        assertThat(Files.readAllBytes(local.resolve("b.copy"))).isEqualTo(b);

        Run rm = shell("-rm", "-r", ROOT + "/in");
        assertThat(rm.exit()).as(rm.err()).isZero();
        assertThat(rm.out()).contains("Deleted " + ROOT + "/in");
        assertThat(shell("-test", "-e", ROOT + "/in").exit()).isEqualTo(1);
        assertThat(lines(shell("-ls", "-R", ROOT + "/").out())).hasSize(1)
                .allSatisfy(l -> assertThat(l).endsWith(ROOT + "/moved.log"));

        Run missing = shell("-cat", ROOT + "/nothing");
        assertThat(missing.exit()).isNotZero();
        assertThat(missing.err()).contains(ROOT + "/nothing").contains("No such file");
    }
}
