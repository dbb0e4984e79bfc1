package org.smartssd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.cli.CliUsageTest.Run;
import org.smartssd.device.DirEntry;
import org.smartssd.device.ObjectType;
import org.smartssd.device.SmartSsdDevice;

/**
 * {@code smartssd put} of several files and of directory trees (-r), as hadoop fs -put
 * places them, and its refusals; the drive's tree is read back through ls and get and
 * compared, name by name and byte by byte, with the local sources.
 */
class CliPutTest {
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
    }

    private Path file(Path at, int size, long seed) throws IOException {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        Files.createDirectories(at.getParent());
        return Files.write(at, data);
    }

    /** A local tree of 9 entries: files of 0, 1, 5000 and 3 MiB + 7 bytes, nested, and an
     * empty directory. */
    private Path tree(String name) throws IOException {
        Path t = dir.resolve("src").resolve(name);
        file(t.resolve("a.bin"), 5000, 1);
        file(t.resolve("b/c.bin"), (3 << 20) + 7, 2);
        file(t.resolve("b/d/deep/e.txt"), 1, 3);
        file(t.resolve("b/empty.bin"), 0, 4);
        Files.createDirectories(t.resolve("f/empty-dir"));
        return t;
    }

    /** Relative path to contents ("/" for a directory) of a local tree. */
    private static Map<String, String> local(Path root) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                if (p.equals(root)) {
                    continue;
                }
                String rel = root.relativize(p).toString();
                m.put(rel, Files.isDirectory(p) ? "/" : digest(Files.readAllBytes(p)));
            }
        }
        return m;
    }

    /** The same of a drive tree, walked through `ls` and copied back through `get`. */
    private Map<String, String> drive(String root) throws IOException {
        Map<String, String> m = new TreeMap<>();
        walk(root, "", m);
        return m;
    }

    private void walk(String path, String rel, Map<String, String> m) throws IOException {
        Run ls = run("ls", uri, path);
        assertThat(ls.code()).as(ls.err()).isZero();
        for (String line : ls.out().split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            boolean isDir = line.endsWith("/");
            String name = isDir ? line.substring(0, line.length() - 1) : line;
            String r = rel.isEmpty() ? name : rel + "/" + name;
            String p = (path.endsWith("/") ? path : path + "/") + name;
            if (isDir) {
                m.put(r, "/");
                walk(p, r, m);
            } else {
                Path back = Files.createTempFile(dir, "get", ".bin");
                Run get = run("get", "--force", uri, p, back.toString());
                assertThat(get.code()).as(get.err()).isZero();
                m.put(r, digest(Files.readAllBytes(back)));
                Files.delete(back);
            }
        }
    }

    private static String digest(byte[] b) {
        try {
            return b.length + ":" + java.util.HexFormat.of().formatHex(
                    java.security.MessageDigest.getInstance("SHA-256").digest(b));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void severalFilesGoIntoTheDirectory() throws Exception {
        Path a = file(dir.resolve("l/a.bin"), 70_000, 5);
        Path b = file(dir.resolve("l/b.bin"), 0, 6);
        Path c = file(dir.resolve("m/c.bin"), (1 << 20) + 3, 7);
        try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
            d.mkdirs("/in");
        }
        Run r = run("put", uri, a.toString(), b.toString(), c.toString(), "/in");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(drive("/in")).isEqualTo(Map.of(
                "a.bin", digest(Files.readAllBytes(a)),
                "b.bin", digest(Files.readAllBytes(b)),
                "c.bin", digest(Files.readAllBytes(c))));
        // one file into an existing directory goes in under its own name
        Run one = run("put", uri, a.toString(), "/");
        assertThat(one.code()).as(one.err()).isZero();
        assertThat(run("ls", uri, "/").out()).isEqualTo("a.bin\nin/\n");
    }

    @Test
    void recursivePutCopiesTheTreeAndThenGoesIntoIt() throws Exception {
        Path t = tree("t");
        Run r = run("put", "-r", uri, t.toString(), "/x/t2");
        assertThat(r.code()).as(r.err()).isZero();
        Map<String, String> want = local(t);
        assertThat(want).hasSize(9);
        assertThat(drive("/x/t2")).isEqualTo(want);

        // the target is a directory now: the tree goes into it, under its own name
        Run again = run("put", "-r", uri, t.toString(), "/x/t2");
        assertThat(again.code()).as(again.err()).isZero();
        Map<String, String> nested = new TreeMap<>(want);
        nested.put("t", "/");
        want.forEach((k, v) -> nested.put("t/" + k, v));
        assertThat(drive("/x/t2")).isEqualTo(nested);

        // a file and a tree together into one directory
        Path f = file(dir.resolve("lone.txt"), 321, 9);
        Run mixed = run("put", "-r", uri, f.toString(), t.toString(), "/x");
        assertThat(mixed.code()).as(mixed.err()).isZero();
        assertThat(drive("/x")).containsEntry("lone.txt", digest(Files.readAllBytes(f)))
                .containsEntry("t/b/c.bin", want.get("b/c.bin"));
    }

    @Test
    void refusalsAsHadoopFsPutGivesThemAndNothingWritten() throws Exception {
        Path t = tree("t");
        Path f = file(dir.resolve("f.bin"), 4096, 11);
        Path g = file(dir.resolve("g.bin"), 100, 12);
        assertThat(run("put", uri, f.toString(), "/f").code()).isZero();
        String before = digest(Files.readAllBytes(f));

        // a directory without -r
        Run noR = run("put", uri, t.toString(), "/t");
        assertThat(noR.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(noR.err()).contains("is a directory").contains("-r");

        // the target exists, without -f; with -f it is replaced
        Run exists = run("put", uri, g.toString(), "/f");
        assertThat(exists.code()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(exists.err()).contains("/f already exists");
        assertThat(drive("/")).containsEntry("f", before);

        // several sources need a directory
        Run missing = run("put", uri, f.toString(), g.toString(), "/nowhere");
        assertThat(missing.code()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(missing.err()).contains("/nowhere: no such directory");
        Run ontoFile = run("put", uri, f.toString(), g.toString(), "/f");
        assertThat(ontoFile.code()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(ontoFile.err()).contains("/f is not a directory");

        // a file onto a directory, even with -f; a directory onto a file
        try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
            d.mkdirs("/d/g.bin");
        }
        Run fileOntoDir = run("put", "-f", uri, g.toString(), "/d");
        assertThat(fileOntoDir.code()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(fileOntoDir.err()).contains("/d/g.bin is a directory");
        Run dirOntoFile = run("put", "-r", "-f", uri, t.toString(), "/f");
        assertThat(dirOntoFile.code()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(dirOntoFile.err()).contains("/f exists and is not a directory");

        // a tree with a file that exists in its middle: refused before anything is written
        assertThat(run("put", uri, g.toString(), "/y/b/empty.bin").code()).isZero();
        Run middle = run("put", "-r", uri, t.toString(), "/y");
        assertThat(middle.code()).as(middle.err()).isZero(); // into /y, as /y/t: no clash
        Run clash = run("put", "-r", uri, t.resolve("b").toString(), t.resolve("a.bin").toString(),
                "/y");
        assertThat(clash.code()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(clash.err()).contains("/y/b/empty.bin already exists");
        assertThat(drive("/y")).doesNotContainKey("b/c.bin").doesNotContainKey("a.bin");

        // a missing local source
        Run none = run("put", uri, dir.resolve("none").toString(), "/n");
        assertThat(none.code()).isEqualTo(ExitCodes.NOT_FOUND);

        assertThat(drive("/")).containsEntry("f", before).doesNotContainKey("t")
                .doesNotContainKey("nowhere").doesNotContainKey("n");
        try (SmartSsdDevice d = SmartSsdDevice.open(uri)) {
            for (DirEntry e : d.list("/")) {
                assertThat(e.name()).doesNotContain("partial-put");
            }
            assertThat(d.lookup("/d/g.bin").type()).isEqualTo(ObjectType.DIRECTORY);
        }
    }
}
