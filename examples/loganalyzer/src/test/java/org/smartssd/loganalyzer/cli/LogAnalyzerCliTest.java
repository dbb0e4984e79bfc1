package org.smartssd.loganalyzer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.loganalyzer.Region;
import org.smartssd.loganalyzer.TestTraces;

/** The command line: gen, run and compare, and the errors a user can make. */
@Tag("full")
class LogAnalyzerCliTest {
    @TempDir
    Path dir;

    record Outcome(int code, String out, String err) {
    }

    private Outcome exec(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        StringWriter picoErr = new StringWriter();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            var cl = LogAnalyzerCli.commandLine();
            cl.setErr(new PrintWriter(picoErr, true));
            int code = cl.execute(args);
            return new Outcome(code, out.toString(StandardCharsets.UTF_8),
                    err.toString(StandardCharsets.UTF_8) + picoErr);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void genWritesTheGeneratorsBytesGzipOrRaw() throws Exception {
        Path raw = dir.resolve("t.bin");
        Path gz = dir.resolve("t.gz");
        assertThat(exec("gen", "-n", "2000", "--seed", "4", "--entry-size", "64", "-o",
                raw.toString(), "--no-progress").code()).isZero();
        assertThat(exec("gen", "-n", "2000", "--seed", "4", "--entry-size", "64", "-o",
                gz.toString(), "--no-progress").code()).isZero();
        byte[] expected = TestTraces.bytes(2000, 4, 64);
        assertThat(Files.readAllBytes(raw)).isEqualTo(expected);
        try (GZIPInputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            assertThat(in.readAllBytes()).isEqualTo(expected);
        }
    }

    @Test
    void runPrintsOneLinePerRegionForEveryMode() throws Exception {
        Path gz = dir.resolve("wc.gz");
        assertThat(exec("gen", "-n", "3000", "--seed", "8", "-o", gz.toString(),
                "--no-progress").code()).isZero();
        byte[] padded = TestTraces.bytes(3000, 8, 64);
        Map<Integer, Long> q1 = TestTraces.q1(padded, 64);
        for (String mode : List.of("host-normal", "host-optimized", "device")) {
            Outcome o = exec("run", "--query", "q1", "--mode", mode, "--input", gz.toString(),
                    "--entry-size", "64", "--no-progress");
            assertThat(o.code()).as(o.err()).isZero();
            List<String> want = new ArrayList<>();
            q1.forEach((r, n) -> want.add(Region.name(r) + " " + n));
            assertThat(lines(o.out())).as(mode).isEqualTo(want);
        }
        Outcome q2 = exec("run", "-q", "q2", "-m", "device", "-i", gz.toString(),
                "--entry-size", "32", "--no-progress", "--stats");
        assertThat(q2.code()).as(q2.err()).isZero();
        List<String> want = new ArrayList<>();
        TestTraces.q2(TestTraces.bytes(3000, 8, 32), 32).forEach((r, l) -> {
            StringBuilder sb = new StringBuilder(Region.name(r));
            for (int i = 0; i < l.size(); i++) {
                sb.append(i == 0 ? " " : ", ").append(org.smartssd.loganalyzer.FileType
                        .name(l.get(i).get(0).intValue())).append(' ').append(l.get(i).get(1));
            }
            want.add(sb.toString());
        });
        assertThat(lines(q2.out())).isEqualTo(want);
        assertThat(q2.err()).contains("Q2 device over 3000 32-byte entries").contains("modelled");
    }

    @Test
    void compareRunsAllThreeAndSaysTheyAgree() throws Exception {
        Path raw = dir.resolve("wc_day1_1");
        Files.write(raw, TestTraces.bytes(2000, 5, 20));
        Outcome o = exec("compare", "-i", raw.toString(), "--entry-size", "32",
                "--query", "q1", "--no-progress");
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("host-normal").contains("host-optimized")
                .contains("device").contains("answers: identical across 3 versions")
                .contains("modelled s");
    }

    @Test
    void sparkEngineRunsBothModesAndComparesWithTheDeviceJob() throws Exception {
        Path raw = dir.resolve("wc_day2_1");
        Files.write(raw, TestTraces.bytes(2500, 6, 20));
        Map<Integer, Long> q1 = TestTraces.q1(TestTraces.bytes(2500, 6, 64), 64);
        List<String> want = new ArrayList<>();
        q1.forEach((r, n) -> want.add(Region.name(r) + " " + n));
        for (String mode : List.of("no-pushdown", "pushdown", "spark-pushdown")) {
            Outcome o = exec("run", "--engine", "spark", "-q", "q1", "-m", mode, "-i",
                    raw.toString(), "--entry-size", "64", "--no-progress");
            assertThat(o.code()).as(o.err()).isZero();
            assertThat(lines(o.out())).as(mode).isEqualTo(want);
        }
        Outcome c = exec("compare", "--engine", "spark", "-i", raw.toString(), "--entry-size",
                "128", "--no-progress");
        assertThat(c.code()).as(c.err()).isZero();
        assertThat(c.out()).contains("device").contains("spark-no-pushdown")
                .contains("spark-pushdown").contains("energy of spark-no-pushdown")
                .contains("answers: identical across 3 versions").doesNotContain("DIFFERENT");

        Outcome wrong = exec("run", "--engine", "spark", "-q", "q1", "-m", "device", "-i",
                raw.toString());
        assertThat(wrong.code()).isEqualTo(LogAnalyzerCli.USAGE);
        assertThat(wrong.err()).contains("unknown mode 'device' for engine spark");
        Outcome engine = exec("run", "--engine", "flink", "-q", "q1", "-m", "device", "-i",
                raw.toString());
        assertThat(engine.code()).isEqualTo(LogAnalyzerCli.USAGE);
        assertThat(engine.err()).contains("unknown engine 'flink'");
    }

    @Test
    void userErrorsGetTheirOwnExitCodeAndAMessage() throws Exception {
        Outcome missing = exec("run", "-q", "q1", "-m", "device", "-i",
                dir.resolve("nope.gz").toString());
        assertThat(missing.code()).isEqualTo(LogAnalyzerCli.NOT_FOUND);
        assertThat(missing.err()).contains("nope.gz");

        Path raw = Files.write(dir.resolve("t"), TestTraces.bytes(10, 1, 20));
        Outcome badMode = exec("run", "-q", "q1", "-m", "gpu", "-i", raw.toString());
        assertThat(badMode.code()).isEqualTo(LogAnalyzerCli.USAGE);
        assertThat(badMode.err()).contains("unknown mode 'gpu'");
        Outcome badQuery = exec("run", "-q", "q3", "-m", "device", "-i", raw.toString());
        assertThat(badQuery.code()).isEqualTo(LogAnalyzerCli.USAGE);
        assertThat(badQuery.err()).contains("unknown query 'q3'");

        Path cut = Files.write(dir.resolve("cut"), Arrays.copyOf(TestTraces.bytes(10, 1, 20), 195));
        Outcome truncated = exec("run", "-q", "q1", "-m", "device", "-i", cut.toString());
        assertThat(truncated.code()).isEqualTo(LogAnalyzerCli.LOCAL_IO);
        assertThat(truncated.err()).contains("195 bytes are not whole 20-byte entries");

        Outcome small = exec("run", "-q", "q1", "-m", "device", "-i", raw.toString(),
                "--entry-size", "16");
        assertThat(small.code()).isEqualTo(LogAnalyzerCli.USAGE);
        assertThat(small.err()).contains("entry size 16");

        assertThat(exec().code()).isEqualTo(LogAnalyzerCli.USAGE);
    }

    private static List<String> lines(String s) {
        return s.lines().map(l -> l.replaceAll("\\s+", " ").trim()).filter(l -> !l.isEmpty())
                .toList();
    }
}
