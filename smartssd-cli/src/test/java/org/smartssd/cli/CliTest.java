package org.smartssd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.cli.CliUsageTest.Run;
import org.smartssd.device.DriveCounters;
import org.smartssd.device.SmartHealth;
import org.smartssd.device.SmartSsdDevice;

/** The smartssd command in-process against an emulated drive. */
class CliTest {
    @TempDir
    Path dir;
    String uri;

    static Run run(String... args) {
        return CliUsageTest.run(args);
    }

    @BeforeEach
    void format() {
        uri = "emu:" + dir.resolve("dev0.img");
        Run r = run("format", uri, "--capacity", "256M");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("formatted").contains("16 channels x 4 ways");
    }

    @Test
    void formatTakesAProfileAndRejectsUnknownOnes() {
        String jasmine = "emu:" + dir.resolve("j.img");
        Run r = run("format", jasmine, "--profile", "jasmine-openssd", "--capacity", "512M");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("4 channels x 8 ways, 32768-byte pages");
        Run bad = run("format", "emu:" + dir.resolve("x.img"), "--profile", "no-such-profile");
        assertThat(bad.code()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(bad.err()).contains("no-such-profile");
    }

    @Test
    void formatChoosesTheDrivesBufferAndInfoShowsIt() {
        String b = "emu:" + dir.resolve("b.img");
        Run r = run("format", b, "--capacity", "256M", "--buffer", "bplru", "--buffer-size", "2M");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("buffer bplru of 256 pages");
        Run info = run("info", b);
        assertThat(info.code()).as(info.err()).isZero();
        assertThat(info.out()).contains("buffer:           bplru, 256 pages (2.0 MiB)")
                .contains("buffer hits:").contains("buffer flushes:");
        // the default drive of @BeforeEach: hbm, 4 MiB of 8 KiB pages
        assertThat(run("info", uri).out()).contains("buffer:           hbm, 512 pages");
        Run bad = run("format", "emu:" + dir.resolve("x.img"), "--buffer", "lru2");
        assertThat(bad.code()).isNotZero();
        assertThat(bad.err()).contains("policy 'lru2'");
    }

    @Test
    void formatChoosesTheMergeCacheWithItsReadPolicy() {
        String nv = "emu:" + dir.resolve("nv.img");
        Run r = run("format", nv, "--capacity", "256M", "--buffer", "nv-wb+both",
                "--buffer-size", "2M");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("buffer nv-wb+both of 256 pages");
        Run fresh = run("info", nv);
        assertThat(fresh.out()).contains("buffer:           nv-wb+both, 256 pages")
                // 256 pages of 8 KiB: 4096 sectors of 512 bytes, none used yet
                .contains("merge cache:      0 of 4096 sectors used, 0 recovered at power-up; "
                        + "0 pages bypassed")
                .contains("index cache:      0 hits, 0 misses");
        assertThat(run("info", uri).out()).doesNotContain("merge cache:")
                .doesNotContain("index cache:");
        Run bad = run("format", nv, "--capacity", "256M", "--buffer", "nv-wb+lots");
        assertThat(bad.code()).isNotZero();
        assertThat(bad.err()).contains("policy 'nv-wb+lots'");
    }

    @Test
    void infoShowsTheMergeCachesOwnCounters() throws Exception {
        String nv = "emu:" + dir.resolve("sub.img");
        Run r = run("format", nv, "--capacity", "256M", "--buffer", "nv-wb",
                "--buffer-size", "2M");
        assertThat(r.code()).as(r.err()).isZero();
        // 8 whole 8 KiB pages of data, held by the writebuffer policy's NVM: info, a new
        // power-up of the drive, finds their 128 sectors there
        Path local = dir.resolve("eight-pages");
        byte[] data = new byte[8 * 8192];
        new Random(3).nextBytes(data);
        Files.write(local, data);
        Run put = run("put", nv, local.toString(), "/eight");
        assertThat(put.code()).as(put.err()).isZero();
        Run info = run("info", nv);
        assertThat(info.code()).as(info.err()).isZero();
        assertThat(info.out()).contains("buffer:           nv-wb, 256 pages")
                .contains("merge cache:      128 of 4096 sectors used, 128 recovered at "
                        + "power-up; 0 pages bypassed, 0 read-cached, 0 prefetched, 0 ftl "
                        + "flushes")
                .contains("index cache:      0 hits, 0 misses (hit ratio 0.000)");
        Run get = run("get", nv, "/eight", dir.resolve("back").toString());
        assertThat(get.code()).as(get.err()).isZero();
        assertThat(Files.readAllBytes(dir.resolve("back"))).isEqualTo(data);
    }

    @Test
    void formatTakesTheCacheShareAndTheBufferTogether() {
        String cb = "emu:" + dir.resolve("cb.img");
        Run r = run("format", cb, "--capacity", "640M", "--cache-share", "30", "--buffer", "lru",
                "--buffer-size", "2M");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("buffer lru of 256 pages")
                .contains("solid-state cache: 30.0 % of the flash");
        assertThat(run("info", cb).out()).contains("buffer:           lru, 256 pages (2.0 MiB)");
        Run none = run("format", cb, "--capacity", "640M", "--buffer", "none", "--cache-share",
                "0");
        assertThat(none.code()).as(none.err()).isZero();
        assertThat(none.out()).contains("buffer none of 0 pages").contains("no solid-state cache");
        Run bad = run("format", cb, "--cache-share", "95", "--buffer", "lru");
        assertThat(bad.code()).isNotZero();
        assertThat(bad.err()).contains("cache share");
    }

    @Test
    void putGetLsRmRoundTrip() throws Exception {
        byte[] data = new byte[2_500_000];
        new Random(3).nextBytes(data);
        Path local = Files.write(dir.resolve("in.bin"), data);
        assertThat(run("put", uri, local.toString(), "/data/in.bin").code()).isZero();

        Run again = run("put", uri, local.toString(), "/data/in.bin");
        assertThat(again.code()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(again.err()).startsWith("smartssd put: ").contains("/data/in.bin")
                .contains("already exists");
        assertThat(run("put", "--force", uri, local.toString(), "/data/in.bin").code()).isZero();

        Run ls = run("ls", uri, "/data");
        assertThat(ls.out()).isEqualTo("in.bin\n");
        Run root = run("ls", uri);
        assertThat(root.out()).isEqualTo("data/\n");
        Run ll = run("ls", "-l", uri, "/data");
        assertThat(ll.out()).matches("- +2500000 \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +\\d+ in\\.bin\\n");

        Path back = dir.resolve("back.bin");
        Run get = run("get", uri, "/data/in.bin", back.toString(), "--progress");
        assertThat(get.code()).as(get.err()).isZero();
        assertThat(Files.readAllBytes(back)).isEqualTo(data);
        // stderr is no terminal here: progress comes as lines, never \r frames
        assertThat(get.err()).contains("get /data/in.bin: 100%").doesNotContain("\r");
        assertThat(run("get", uri, "/data/in.bin", back.toString()).code())
                .isEqualTo(ExitCodes.CONFLICT);

        Run missing = run("get", uri, "/data/none", dir.resolve("x").toString());
        assertThat(missing.code()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(missing.err()).contains("/data/none").contains("NO_SUCH_OBJECT");

        Run notEmpty = run("rm", uri, "/data");
        assertThat(notEmpty.code()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(run("rm", "-r", uri, "/data").code()).isZero();
        assertThat(run("ls", uri).out()).isEmpty();
        assertThat(run("rm", uri, "/data").code()).isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    void getToStdout() throws Exception {
        Path local = Files.writeString(dir.resolve("t.txt"), "hello drive\n");
        run("put", uri, local.toString(), "/t.txt");
        Run r = run("get", uri, "/t.txt", "-");
        assertThat(r.code()).isZero();
        assertThat(r.out()).isEqualTo("hello drive\n");
    }

    @Test
    void infoShowsTheDrive() {
        Run r = run("info", uri);
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("transport:        emu").contains("KANG")
                .contains("8192-byte pages").contains("objects:          1 of")
                .contains("isp queue:        0 runs, 0 pages left, 0.000000 s of ISP work")
                .contains("energy:").contains("(modelled)");
    }

    @Test
    void healthPrintsTheDrivesNamesAndUnitsAndItsCounters() throws Exception {
        Path local = Files.write(dir.resolve("w.bin"), new byte[300_000]);
        run("put", uri, local.toString(), "/w.bin");
        Run r = run("health", uri);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("overall: GOOD");
        SmartHealth h;
        DriveCounters c;
        try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
            h = d.health();
            c = d.counters();
        }
        assertThat(row(r.out(), 5).raw()).isEqualTo(c.retiredBlocks());
        assertThat(row(r.out(), 177).raw()).isEqualTo(c.avgEraseCount());
        // 300000 bytes = 586 sectors written by put, plus nothing else written by the host
        assertThat(row(r.out(), 241).raw()).isEqualTo(586);
        assertThat(row(r.out(), 241).unit()).isEqualTo("sectors");
        assertThat(h.attribute("host-sectors-written").raw()).isEqualTo(586);
    }

    /**
     * Every attribute of a drive with a cache and a buffer (all of them), as health prints
     * it, against the drive's own table read from its source (SS_PROTO_SMART_ATTRS): the
     * same ids, each with the table's name and unit, and libatasmart's name only where the
     * table says it means the same quantity.
     */
    @Test
    void healthNamesEveryAttributeAsTheDrivesTableDoes() throws Exception {
        String all = "emu:" + dir.resolve("all.img");
        Run f = run("format", all, "--capacity", "640M", "--cache-share", "30", "--buffer",
                "lru", "--buffer-size", "2M");
        assertThat(f.code()).as(f.err()).isZero();
        Run r = run("health", all);
        assertThat(r.code()).as(r.err()).isZero();
        java.util.Map<Integer, TableRow> table = driveTable();
        assertThat(table).hasSize(29);
        java.util.Map<Integer, Row> printed = new java.util.HashMap<>();
        for (String line : r.out().split("\n")) {
            Row row = Row.parse(line);
            if (row != null) {
                printed.put(row.id(), row);
            }
        }
        assertThat(printed.keySet()).as(r.out()).isEqualTo(table.keySet());
        for (TableRow t : table.values()) {
            Row p = printed.get(t.id());
            assertThat(p.name()).as("name of %d", t.id()).isEqualTo(t.name());
            assertThat(p.unit()).as("unit of %d", t.id()).isEqualTo(t.unit());
            if (t.atasmart()) {
                assertThat(p.atasmart()).as("libatasmart's name of %d", t.id())
                        .isNotEqualTo("-").doesNotStartWith("attribute-");
            } else {
                assertThat(p.atasmart()).as("libatasmart's name of %d", t.id()).isEqualTo("-");
            }
        }
    }

    record TableRow(int id, String name, String unit, boolean atasmart) { }

    /** One attribute row of `smartssd health`: id, name, raw value and unit, libatasmart's name. */
    record Row(int id, String name, long raw, String unit, String atasmart) {
        static final Pattern LINE = Pattern.compile(
                "^\\s*(\\d+) (\\S+) +\\d+ +\\d+ +\\S+ +(?:pre|old) +(-?\\d+)(?: (\\S+))? +(\\S+)$");

        static Row parse(String line) {
            Matcher m = LINE.matcher(line);
            return m.matches() ? new Row(Integer.parseInt(m.group(1)), m.group(2),
                    Long.parseLong(m.group(3)), m.group(4) == null ? "" : m.group(4),
                    m.group(5)) : null;
        }
    }

    private static Row row(String out, int id) {
        for (String line : out.split("\n")) {
            Row r = Row.parse(line);
            if (r != null && r.id() == id) {
                return r;
            }
        }
        throw new AssertionError("no attribute " + id + " in\n" + out);
    }

    /** SS_PROTO_SMART_ATTRS, the drive's table, parsed from protocol/include/ss_proto.h. */
    static java.util.Map<Integer, TableRow> driveTable() throws java.io.IOException {
        Path h = Path.of(System.getProperty("smartssd.source.root", ".."),
                "protocol/include/ss_proto.h");
        String text = Files.readString(h);
        int from = text.indexOf("#define SS_PROTO_SMART_ATTRS(X)");
        assertThat(from).as("SS_PROTO_SMART_ATTRS in %s", h).isNotNegative();
        Matcher m = Pattern.compile("X\\((\\w+), (\\d+), \"([^\"]+)\", \"([^\"]+)\", ([01])\\)")
                .matcher(text.substring(from, text.indexOf("enum ss_smart_attr_id", from)));
        java.util.Map<Integer, TableRow> t = new java.util.LinkedHashMap<>();
        while (m.find()) {
            int id = Integer.parseInt(m.group(2));
            t.put(id, new TableRow(id, m.group(3), m.group(4), m.group(5).equals("1")));
        }
        return t;
    }

    @Test
    void driveErrorsExitWithThree() {
        Run r = run("ls", "unix:" + dir.resolve("nobody.sock"));
        assertThat(r.code()).isIn(ExitCodes.DRIVE, ExitCodes.NOT_FOUND);
        assertThat(r.err()).contains("nobody.sock");
    }
}
