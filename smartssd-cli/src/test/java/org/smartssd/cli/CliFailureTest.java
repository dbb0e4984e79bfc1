package org.smartssd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.SmartSsdDevice;

/** What the CLI does when a copy fails or an argument is wrong: nothing lost, a clear message. */
class CliFailureTest {
    @TempDir
    Path dir;
    String uri;

    static CliUsageTest.Run run(String... args) {
        return CliUsageTest.run(args);
    }

    @BeforeEach
    void format() {
        uri = "emu:" + dir.resolve("small.img");
        // one block on each of the 64 dies: the smallest kang-smartssd drive
        CliUsageTest.Run r = run("format", uri, "--capacity", "64M");
        assertThat(r.code()).as(r.err()).isZero();
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void aPutThatFillsTheDriveLeavesTheOldObjectWholeAndNoPartialOne() throws Exception {
        byte[] old = random(300_000, 1);
        Path small = Files.write(dir.resolve("old.bin"), old);
        assertThat(run("put", uri, small.toString(), "/data/x").code()).isZero();
        long free;
        try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
            free = d.fsStat().freeBytes();
        }
        Path big = Files.write(dir.resolve("big.bin"), random((int) free + (8 << 20), 2));

        CliUsageTest.Run full = run("put", "--force", uri, big.toString(), "/data/x");
        assertThat(full.code()).isEqualTo(ExitCodes.DRIVE);
        assertThat(full.err()).contains("smartssd put").containsIgnoringCase("full");

        Path back = dir.resolve("back.bin");
        CliUsageTest.Run get = run("get", uri, "/data/x", back.toString());
        assertThat(get.code()).as(get.err()).isZero();
        assertThat(Files.readAllBytes(back)).isEqualTo(old);
        CliUsageTest.Run ls = run("ls", uri, "/data");
        assertThat(ls.out()).contains("x").doesNotContain("partial");
        // the space of the failed copy is free again: the same big put fits nowhere, a
        // small one still does
        assertThat(run("put", uri, small.toString(), "/data/y").code()).isZero();
    }

    /** A name with an ESC or a right-to-left override reaches the terminal escaped, whether
     *  the drive refused it or the local file system did. */
    @Test
    void namesInMessagesAreEscaped() throws Exception {
        CliUsageTest.Run ls = run("ls", uri, "/d/\u001b[31mred");
        assertThat(ls.code()).isNotZero();
        assertThat(ls.err()).contains("/d/\\x1b[31mred").contains("BAD_PATH").doesNotContain("\u001b");

        CliUsageTest.Run rlo = run("ls", uri, "/d/evil\u202etxt.exe");
        assertThat(rlo.code()).isNotZero();
        assertThat(rlo.err()).contains("/d/evil\\u202etxt.exe").doesNotContain("\u202e");

        CliUsageTest.Run put = run("put", uri, dir.resolve("no\u001b[2Jfile").toString(), "/x");
        assertThat(put.code()).isNotZero();
        assertThat(put.err()).contains("no\\x1b[2Jfile").doesNotContain("\u001b");
    }

    @Test
    void getNeverLeavesAPartialLocalFileAndSaysWhatIsWrong() throws Exception {
        Path src = Files.write(dir.resolve("src.bin"), random(100_000, 3));
        assertThat(run("put", uri, src.toString(), "/f").code()).isZero();
        Path existing = Files.writeString(dir.resolve("existing.txt"), "keep");

        CliUsageTest.Run exists = run("get", uri, "/f", existing.toString());
        assertThat(exists.code()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(exists.err()).contains(existing.toString()).contains("exists (use --force");
        assertThat(existing).hasContent("keep");

        CliUsageTest.Run noDir = run("get", uri, "/f", dir.resolve("nope/out.bin").toString());
        assertThat(noDir.code()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(noDir.err()).contains("no such directory").contains("nope");

        CliUsageTest.Run isDir = run("get", uri, "/f", dir.toString());
        assertThat(isDir.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(isDir.err()).contains("is a directory");

        CliUsageTest.Run missing = run("get", uri, "/no-such", dir.resolve("m.bin").toString());
        assertThat(missing.code()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(dir.resolve("m.bin")).doesNotExist();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(
                    n -> n.contains("partial"));
        }

        CliUsageTest.Run forced = run("get", "--force", uri, "/f", existing.toString());
        assertThat(forced.code()).as(forced.err()).isZero();
        assertThat(Files.readAllBytes(existing)).isEqualTo(Files.readAllBytes(src));
    }

    @Test
    void putOfADirectoryAndNamesWithControlCharactersAreRefused() throws Exception {
        CliUsageTest.Run putDir = run("put", uri, dir.toString(), "/d");
        assertThat(putDir.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(putDir.err()).contains("is a directory");

        Path f = Files.writeString(dir.resolve("f.txt"), "x");
        for (String bad : new String[] {"/a\nb", "/tab\there", "/esc\u001b[31m", "/c\u0001"}) {
            CliUsageTest.Run r = run("put", uri, f.toString(), bad);
            assertThat(r.code()).as("%s: %s", bad.replace("\u001b", "ESC"), r.err())
                    .isNotZero();
            assertThat(r.err()).containsIgnoringCase("path");
        }
        assertThat(run("ls", uri, "/").out()).doesNotContain("\u001b").doesNotContain("\t");
    }

    @Test
    void aCapacityBelowTheProfilesMinimumIsRefusedAndNamed() {
        CliUsageTest.Run r = run("format", "emu:" + dir.resolve("t.img"), "--capacity", "16M");
        assertThat(r.code()).isNotZero();
        assertThat(r.err()).contains("minimum of 67108864 bytes (64 MiB");
        assertThat(dir.resolve("t.img")).doesNotExist();
    }
}
