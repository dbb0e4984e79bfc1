package org.smartssd.fs.impl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.statistics.impl.IOStatisticsBinding;
import org.junit.jupiter.api.Test;
import org.smartssd.device.NoSuchObjectException;
import org.smartssd.device.ObjectExistsException;
import org.smartssd.device.ObjectStat;
import org.smartssd.device.ObjectType;

/**
 * The operations against fake callbacks: the drive commands each one sends (its stated
 * cost) and its decisions, without a drive.
 */
class OperationsTest {
    private static final StoreContext CTX = new StoreContext(URI.create("smartssd://fake"),
            "fake", "emu:/fake.img", "host-a", 1000, "user", "group", new Configuration(),
            IOStatisticsBinding.iostatisticsStore().build(),
            new org.apache.hadoop.fs.FileSystem.Statistics("smartssd"));

    private static Path p(String s) {
        return new Path("smartssd://fake" + s);
    }

    private static ObjectStat stat(long oid, ObjectType type, long size) {
        return new ObjectStat(oid, 1, type, 0, size, 1_000_000L, 2_000_000L, 3_000_000L, 0, 0,
                "x");
    }

    /** A namespace of path -> stat, recording every command sent. */
    private static final class FakeDrive implements RenameOperation.RenameCallbacks,
            CreateOperation.CreateCallbacks, DeleteOperation.DeleteCallbacks {
        final Map<String, ObjectStat> objects = new HashMap<>();
        final List<String> commands = new ArrayList<>();

        @Override
        public Optional<ObjectStat> find(String key) {
            commands.add("LOOKUP " + key);
            return Optional.ofNullable(objects.get(key));
        }

        @Override
        public void renameNoReplace(String src, String dst) throws IOException {
            commands.add("RENAME " + src + " " + dst);
            if (objects.containsKey(dst)) {
                throw new ObjectExistsException("exists", 17, 14);
            }
            if (!objects.containsKey(dst.substring(0, Math.max(1, dst.lastIndexOf('/'))))) {
                throw new NoSuchObjectException("no parent", 2, 13);
            }
            objects.put(dst, objects.remove(src));
        }

        @Override
        public long createFile(String key, boolean exclusive, boolean parents) {
            commands.add("CREATE " + key + (exclusive ? " EXCL" : "") + (parents ? " PARENTS" : ""));
            return 42;
        }

        @Override
        public void truncate(long oid, long size) {
            commands.add("TRUNCATE " + oid + " " + size);
        }

        @Override
        public void remove(String key, boolean recursive) throws IOException {
            commands.add("REMOVE " + key + (recursive ? " RECURSIVE" : ""));
            if (objects.remove(key) == null) {
                throw new NoSuchObjectException("none", 2, 13);
            }
        }

        @Override
        public boolean hasChildren(String key) {
            commands.add("LIST " + key);
            return objects.keySet().stream().anyMatch(k -> !k.equals("/"));
        }
    }

    private static FakeDrive drive(String... dirsThenFiles) {
        FakeDrive d = new FakeDrive();
        d.objects.put("/", stat(1, ObjectType.DIRECTORY, 0));
        long oid = 2;
        for (String s : dirsThenFiles) {
            boolean dir = s.endsWith("/");
            d.objects.put(dir ? s.substring(0, s.length() - 1) : s,
                    stat(oid++, dir ? ObjectType.DIRECTORY : ObjectType.FILE, 10));
        }
        return d;
    }

    @Test
    void renameCostsTwoLookupsAndOneRenameAndNeverReplaces() throws IOException {
        FakeDrive d = drive("/a/", "/a/f", "/b/", "/b/g");
        assertThat(new RenameOperation(CTX, p("/a/f"), p("/b/h"), d).execute()).isTrue();
        assertThat(d.commands).containsExactly("LOOKUP /a/f", "LOOKUP /b/h",
                "RENAME /a/f /b/h");
        d.commands.clear();
        // into an existing directory, under the source's own name
        assertThat(new RenameOperation(CTX, p("/a"), p("/b"), d).execute()).isTrue();
        assertThat(d.commands).containsExactly("LOOKUP /a", "LOOKUP /b", "RENAME /a /b/a");
        d.commands.clear();
        // onto an existing file: false, and no RENAME sent
        assertThat(new RenameOperation(CTX, p("/b/h"), p("/b/g"), d).execute()).isFalse();
        assertThat(d.commands).containsExactly("LOOKUP /b/h", "LOOKUP /b/g");
        assertThat(new RenameOperation(CTX, p("/missing"), p("/x"), d).execute()).isFalse();
        assertThat(new RenameOperation(CTX, p("/b"), p("/b/a/in"), d).execute()).isFalse();
        assertThat(new RenameOperation(CTX, p("/"), p("/x"), d).execute()).isFalse();
        assertThat(new RenameOperation(CTX, p("/b/g"), p("/nodir/x"), d).execute()).isFalse();
        assertThat(new RenameOperation(CTX, p("/b/g"), p("/b/g"), d).execute()).isTrue();
        assertThat(d.objects).containsKeys("/b/g", "/b/h");
    }

    @Test
    void createTruncatesOnlyWhenOverwriting() throws IOException {
        FakeDrive d = drive();
        assertThat(new CreateOperation(CTX, p("/f"), true, true, d).execute()).isEqualTo(42);
        assertThat(d.commands).containsExactly("CREATE /f PARENTS", "TRUNCATE 42 0");
        d.commands.clear();
        new CreateOperation(CTX, p("/g"), false, false, d).execute();
        assertThat(d.commands).containsExactly("CREATE /g EXCL");
        assertThatThrownBy(() -> new CreateOperation(CTX, p("/"), true, true, d).execute())
                .hasMessageContaining("root");
    }

    @Test
    void deleteIsOneRemoveAndNeverRemovesTheRoot() throws IOException {
        FakeDrive d = drive("/a/", "/a/f");
        assertThat(new DeleteOperation(CTX, p("/a"), true, d).execute()).isTrue();
        assertThat(d.commands).containsExactly("REMOVE /a RECURSIVE");
        assertThat(new DeleteOperation(CTX, p("/a"), true, d).execute()).isFalse();
        d.objects.put("/x", stat(9, ObjectType.FILE, 1));
        d.commands.clear();
        assertThat(new DeleteOperation(CTX, p("/"), true, d).execute()).isFalse();
        assertThat(d.commands).isEmpty();
        assertThatThrownBy(() -> new DeleteOperation(CTX, p("/"), false, d).execute())
                .isInstanceOf(PathIsNotEmptyDirectoryException.class);
        assertThat(d.objects).containsKey("/x");
    }

    @Test
    void anOperationRunsOnce() throws IOException {
        FakeDrive d = drive();
        CreateOperation op = new CreateOperation(CTX, p("/once"), true, true, d);
        op.execute();
        assertThatThrownBy(op::execute).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void pathsMapToDriveKeysAndInvalidNamesAreRefused() {
        assertThat(CTX.pathToKey(p("/"))).isEqualTo("/");
        assertThat(CTX.pathToKey(new Path("smartssd://fake"))).isEqualTo("/");
        assertThat(CTX.pathToKey(p("/a/b c/d"))).isEqualTo("/a/b c/d");
        assertThat(CTX.keyToPath("/a/b")).isEqualTo(p("/a/b"));
        assertThatThrownBy(() -> CTX.pathToKey(p("/" + "x".repeat(256))))
                .isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> CTX.pathToKey(p("/" + "y/".repeat(2100))))
                .isInstanceOf(InvalidPathException.class).hasMessageContaining("4096");
        assertThatThrownBy(() -> CTX.pathToKey(p("/\u007fsys")))
                .isInstanceOf(InvalidPathException.class);
        assertThat(CTX.pathToKey(p("/a/\u007fok"))).isEqualTo("/a/\u007fok");
    }

    @Test
    void statusesCarryDriveTimesAndTheBlockSize() {
        FileStatus f = CTX.toFileStatus(stat(5, ObjectType.FILE, 1234), p("/f"));
        assertThat(f.getLen()).isEqualTo(1234);
        assertThat(f.getModificationTime()).isEqualTo(2);
        assertThat(f.getAccessTime()).isEqualTo(3);
        assertThat(f.getBlockSize()).isEqualTo(1000);
        assertThat(f.getOwner()).isEqualTo("user");
        FileStatus d = CTX.toFileStatus(stat(6, ObjectType.DIRECTORY, 99), p("/d"));
        assertThat(d.isDirectory()).isTrue();
        assertThat(d.getLen()).isZero();
    }

    @Test
    void blockLocationsAreBlockSizeSlicesOnTheDriveHost() throws IOException {
        FileStatus f = CTX.toFileStatus(stat(5, ObjectType.FILE, 2500), p("/f"));
        BlockLocation[] all = BlockLocations.of(CTX, f, 0, 2500);
        assertThat(all).extracting(BlockLocation::getOffset).containsExactly(0L, 1000L, 2000L);
        assertThat(all).extracting(BlockLocation::getLength).containsExactly(1000L, 1000L, 500L);
        assertThat(all[2].getHosts()).containsExactly("host-a");
        assertThat(BlockLocations.of(CTX, f, 999, 2)).extracting(BlockLocation::getOffset)
                .containsExactly(0L, 1000L);
        assertThat(BlockLocations.of(CTX, f, 2500, 10)).isEmpty();
        assertThat(BlockLocations.of(CTX, CTX.toFileStatus(stat(6, ObjectType.DIRECTORY, 0),
                p("/d")), 0, 10)).isEmpty();
    }
}
