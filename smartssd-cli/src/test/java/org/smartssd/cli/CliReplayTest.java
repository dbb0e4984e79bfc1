package org.smartssd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.cli.CliUsageTest.Run;

/**
 * {@code smartssd replay} running the real smartssd-replay on small traces written here in
 * each format: the report's request counts, bytes, read share, footprint and the pages the
 * buffer saw agree with figures computed from the trace itself, and the same requests give
 * the same replay whatever the format they are written in, and the same in the report as in
 * the benchmark's CSV row.
 */
class CliReplayTest {
    /** one request: arrival in whole seconds (exact in every format), 512-byte sectors */
    record Req(long seconds, long lba, int sectors, boolean write) {
    }

    static final int PAGE_SECTORS = 4; // the replay drive's 2 KiB pages
    static final List<Req> TRACE = new ArrayList<>();

    @TempDir
    static Path dir;

    @BeforeAll
    static void makeTrace() {
        Random rnd = new Random(10);
        long span = 6L << 11; // 6 MiB of sectors
        for (int i = 0; i < 400; i++) {
            // bursts of eight at one timestamp, so requests queue behind each other
            int sectors = 1 + rnd.nextInt(24);
            long lba = rnd.nextInt(4) == 0 ? rnd.nextInt(64) * 8L // a hot 256 KiB
                    : (long) rnd.nextInt((int) (span - sectors));
            TRACE.add(new Req(i / 8, lba, sectors, rnd.nextInt(10) < 6));
        }
    }

    static Run run(String... args) {
        return CliUsageTest.run(args);
    }

    static Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    static Path spc() throws IOException {
        StringBuilder s = new StringBuilder("# ASU,LBA,Size,Opcode,Timestamp\n");
        for (Req r : TRACE) {
            s.append(String.format(Locale.ROOT, "0,%d,%d,%s,%d.000000%n", r.lba(),
                    r.sectors() * 512, r.write() ? "w" : "r", r.seconds()));
        }
        return write("t.spc", s.toString());
    }

    static Path msr() throws IOException {
        StringBuilder s = new StringBuilder();
        long base = 128166372003061629L;
        for (Req r : TRACE) {
            s.append(String.format(Locale.ROOT, "%d,usr,0,%s,%d,%d,1000%n",
                    base + r.seconds() * 10_000_000L, r.write() ? "Write" : "Read",
                    r.lba() * 512, r.sectors() * 512));
        }
        return write("t.csv", s.toString());
    }

    static Path disksim() throws IOException {
        StringBuilder s = new StringBuilder();
        for (Req r : TRACE) {
            s.append(String.format(Locale.ROOT, "%d.0 0 %d %d %d%n", r.seconds() * 1000,
                    r.lba(), r.sectors(), r.write() ? 0 : 1));
        }
        return write("t.disksim", s.toString());
    }

    /** the report's "name: value" lines */
    static Map<String, String> report(String out) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : out.split("\n")) {
            int c = line.indexOf(':');
            if (c > 0) {
                m.put(line.substring(0, c), line.substring(c + 1).trim());
            }
        }
        return m;
    }

    static long pages(Req r) {
        return (r.lba() + r.sectors() - 1) / PAGE_SECTORS - r.lba() / PAGE_SECTORS + 1;
    }

    static long partialPages(Req r) {
        long first = r.lba() / PAGE_SECTORS;
        long last = (r.lba() + r.sectors() - 1) / PAGE_SECTORS;
        boolean head = r.lba() % PAGE_SECTORS != 0;
        boolean tail = (r.lba() + r.sectors()) % PAGE_SECTORS != 0;
        if (first == last) {
            return head || tail ? 1 : 0;
        }
        return (head ? 1 : 0) + (tail ? 1 : 0);
    }

    @Test
    void theReportAgreesWithTheTraceInEveryFormat() throws IOException {
        long reads = TRACE.stream().filter(r -> !r.write()).count();
        long bytesRead = TRACE.stream().filter(r -> !r.write()).mapToLong(r -> r.sectors() * 512L).sum();
        long bytesWritten = TRACE.stream().filter(Req::write).mapToLong(r -> r.sectors() * 512L).sum();
        // the block commands read the partly written pages of a write (read-modify-write)
        long readPages = TRACE.stream().filter(r -> !r.write()).mapToLong(CliReplayTest::pages).sum()
                + TRACE.stream().filter(Req::write).mapToLong(CliReplayTest::partialPages).sum();
        long writePages = TRACE.stream().filter(Req::write).mapToLong(CliReplayTest::pages).sum();
        long spanMib = (TRACE.stream().mapToLong(r -> r.lba() + r.sectors()).max().orElseThrow()
                * 512 + (1 << 20) - 1) >> 20;

        List<String> rows = new ArrayList<>();
        long paddingReads = 0;
        for (Path trace : new Path[] {spc(), msr(), disksim()}) {
            Run r = run("replay", "--buffer", "bplru", "--buffer-size", "512K", trace.toString());
            assertThat(r.code()).as(r.err()).isZero();
            Map<String, String> m = report(r.out());
            assertThat(m.get("requests")).isEqualTo(String.format(Locale.ROOT,
                    "%d (%d reads, %d writes; read share %.4f)", TRACE.size(), reads,
                    TRACE.size() - reads, (double) reads / TRACE.size()));
            assertThat(m.get("bytes")).isEqualTo(bytesRead + " read, " + bytesWritten + " written");
            assertThat(m.get("drive")).startsWith(spanMib + " MiB footprint, 2 KiB pages");
            assertThat(m.get("buffer")).startsWith("bplru, 524288 bytes (256 pages)");
            assertThat(m.get("hit ratio")).contains("of " + readPages + " pages")
                    .contains("of " + writePages + " pages");
            assertThat(m).containsKeys("avg response", "erases", "extra reads", "energy",
                    "flushed pages");

            // the benchmark's CSV row of the same replay
            Run c = run("replay", "--csv", "--buffer", "bplru", "--buffer-size", "512K",
                    trace.toString());
            assertThat(c.code()).as(c.err()).isZero();
            String[] lines = c.out().split("\n");
            assertThat(lines).hasSize(2);
            List<String> head = Arrays.asList(lines[0].split(","));
            String[] row = lines[1].split(",");
            assertThat(row[head.indexOf("trace")]).isEqualTo(trace.toString());
            assertThat(m.get("avg response")).startsWith(row[head.indexOf("avg_response_ms")] + " ms");
            assertThat(m.get("hit ratio")).startsWith(row[head.indexOf("hit_ratio")] + " ");
            assertThat(m.get("erases")).isEqualTo(row[head.indexOf("erases")]);
            assertThat(m.get("extra reads")).startsWith(row[head.indexOf("padding_reads")] + " ");
            assertThat(m.get("energy")).startsWith(row[head.indexOf("energy_nand_mj")] + " mJ");
            assertThat(Long.parseLong(row[head.indexOf("reads")])).isEqualTo(reads);
            rows.add(lines[1].substring(lines[1].indexOf(',')));
            paddingReads = Long.parseLong(row[head.indexOf("padding_reads")]);
        }
        // the same requests, whatever the format: the same replay to the last digit
        assertThat(rows.get(1)).isEqualTo(rows.get(0));
        assertThat(rows.get(2)).isEqualTo(rows.get(0));
        // BPLRU pads the blocks it flushes with reads: the figure is not a constant 0
        assertThat(paddingReads).isPositive();
    }

    @Test
    void theMergeCacheReportsItsOwnCounters() throws IOException {
        Run r = run("replay", "--buffer", "nv-sub", "--buffer-size", "512K", "--capacity", "8M",
                "--page-size", "4K", disksim().toString());
        assertThat(r.code()).as(r.err()).isZero();
        Map<String, String> m = report(r.out());
        assertThat(m.get("drive")).startsWith("8 MiB footprint, 4 KiB pages");
        assertThat(m.get("buffer")).startsWith("nv-sub, 524288 bytes");
        assertThat(m).containsKeys("merge cache", "index cache");
    }

    @Test
    void badInputIsRefusedWithAClearMessage() throws IOException {
        Path good = spc();
        Run format = run("replay", "--format", "blktrace", good.toString());
        assertThat(format.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(format.err()).contains("blktrace").contains("spc, msr, disksim");

        Path bad = write("bad.spc", "0,8,4096,w,0.0\n0,16,4096,r,0.1\n0,24,4096,q,0.2\n");
        Run line = run("replay", bad.toString());
        assertThat(line.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(line.err()).contains(bad.toString()).contains("SPC line 3");

        Run msrAsSpc = run("replay", "--format", "spc", msr().toString());
        assertThat(msrAsSpc.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(msrAsSpc.err()).contains("SPC line 1");

        Run missing = run("replay", dir.resolve("none.spc").toString());
        assertThat(missing.code()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(missing.err()).contains("none.spc").contains("No such file");
        Run escaped = run("replay", dir.resolve("no\u001b[2Jne.spc").toString());
        assertThat(escaped.code()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(escaped.err()).contains("no\\x1b[2Jne.spc").doesNotContain("\u001b");

        Run policy = run("replay", "--buffer", "lru2", good.toString());
        assertThat(policy.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(policy.err()).contains("lru2: no such buffer policy");

        Run size = run("replay", "--buffer-size", "lots", good.toString());
        assertThat(size.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(size.err()).contains("'lots' is not a size");

        Run small = run("replay", "--page-size", "4K", "--buffer-size", "256K", good.toString());
        assertThat(small.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(small.err()).contains("at least two 64-page blocks");

        // past the drive's DRAM: said so, with the largest buffer it holds
        Run huge = run("replay", "--buffer-size", "1T", good.toString());
        assertThat(huge.code()).isNotZero();
        assertThat(huge.err()).contains("a buffer of 1099511627776 bytes is over the drive's DRAM")
                .containsPattern("at most \\d+ bytes").doesNotContain("policy");

        Run page = run("replay", "--page-size", "8K", good.toString());
        assertThat(page.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(page.err()).contains("2K or 4K");

        Run asu = run("replay", "--asu-size", "100K", good.toString());
        assertThat(asu.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(asu.err()).contains("whole number of MiB");
    }
}
