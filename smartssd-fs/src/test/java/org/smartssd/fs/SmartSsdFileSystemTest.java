package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.StoreStatisticNames;
import org.apache.hadoop.util.DiskChecker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.fs.impl.DriveRegistry;
import org.smartssd.fs.impl.DriveStore;

/** smartssd:// on embedded emulated drives: behaviour beyond the contract suites. */
class SmartSsdFileSystemTest {
    private static FileSystem fs;

    @BeforeAll
    static void open() throws IOException {
        fs = FsTestSupport.newFs("unit", FsTestSupport.embeddedConf());
    }

    @AfterAll
    static void close() throws IOException {
        fs.close();
    }

    private static org.apache.hadoop.fs.Path p(String s) {
        return new org.apache.hadoop.fs.Path("smartssd://unit" + s);
    }

    private static void write(org.apache.hadoop.fs.Path path, byte[] data) throws IOException {
        try (FSDataOutputStream out = fs.create(path, true)) {
            out.write(data);
        }
    }

    private static byte[] read(FileSystem f, org.apache.hadoop.fs.Path path) throws IOException {
        try (FSDataInputStream in = f.open(path)) {
            return in.readAllBytes();
        }
    }

    @Test
    void schemeIsRegisteredByServiceLoadingAndDefaults() throws IOException {
        Configuration bare = new Configuration();
        assertThat(FileSystem.getFileSystemClass("smartssd", bare))
                .isEqualTo(SmartSsdFileSystem.class);
        assertThat(fs).isInstanceOf(SmartSsdFileSystem.class);
        assertThat(fs.getScheme()).isEqualTo("smartssd");
        assertThat(fs.getUri()).isEqualTo(URI.create("smartssd://unit"));
        // smartssd-default.xml is a default resource once the class is loaded
        assertThat(new Configuration().get("fs.smartssd.impl"))
                .isEqualTo(SmartSsdFileSystem.class.getName());
    }

    @Test
    void unconfiguredDeviceSaysHowToConfigureOne() {
        assertThatThrownBy(() -> FsTestSupport.newFs("nowhere", new Configuration()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("smartssd://nowhere/")
                .hasMessageContaining("smartssd.device.nowhere.uri")
                .hasMessageContaining("emu:/")
                .hasMessageContaining("unix:/")
                .hasMessageContaining("sg:/dev/sdX")
                .hasMessageContaining("smartssd.device.embedded.allowed=true");
        Configuration c = new Configuration();
        c.set("smartssd.device.bad.uri", "/tmp/x.img");
        assertThatThrownBy(() -> FsTestSupport.newFs("bad", c))
                .hasMessageContaining("smartssd.device.bad.uri").hasMessageContaining("/tmp/x.img")
                .hasMessageContaining("is not a drive URI");
        assertThatThrownBy(() -> FileSystem.newInstance(URI.create("smartssd:///x"),
                FsTestSupport.embeddedConf())).hasMessageContaining("names no device");
    }

    @Test
    void configuredEmuImageIsOpened(@TempDir Path dir) throws IOException {
        Path img = dir.resolve("conf.img");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 0);
        try (SmartSsdDevice dev = SmartSsdDevice.open("emu:" + img)) {
            dev.mkdirs("/preexisting");
        }
        Configuration c = new Configuration();
        c.set("smartssd.device.conf.uri", "emu:" + img);
        try (FileSystem f = FsTestSupport.newFs("conf", c)) {
            assertThat(f.getFileStatus(new org.apache.hadoop.fs.Path("/preexisting"))
                    .isDirectory()).isTrue();
        }
        assertThat(DriveRegistry.references("emu:" + img)).isZero();
    }

    @Test
    void instancesShareOneReferenceCountedDevice() throws IOException {
        Configuration c = FsTestSupport.embeddedConf();
        SmartSsdFileSystem a = (SmartSsdFileSystem) FsTestSupport.newFs("shared", c);
        SmartSsdFileSystem b = (SmartSsdFileSystem) FsTestSupport.newFs("shared", c);
        String uri = a.storeContext().driveUri();
        SmartSsdDevice dev = a.device();
        assertThat(b.device()).isSameAs(dev);
        assertThat(DriveRegistry.references(uri)).isEqualTo(2);
        a.create(new org.apache.hadoop.fs.Path("/from-a")).close();
        assertThat(b.exists(new org.apache.hadoop.fs.Path("/from-a"))).isTrue();
        a.close();
        a.close(); // double close is fine
        assertThat(DriveRegistry.references(uri)).isEqualTo(1);
        assertThat(dev.isClosed()).isFalse();
        assertThatThrownBy(() -> a.getFileStatus(new org.apache.hadoop.fs.Path("/")))
                .isInstanceOf(IOException.class).hasMessageContaining("closed");
        b.close();
        assertThat(DriveRegistry.references(uri)).isZero();
        assertThat(dev.isClosed()).isTrue();
        // the embedded drive of a name lives as long as the JVM: its files are still there
        try (FileSystem again = FsTestSupport.newFs("shared", c)) {
            assertThat(again.exists(new org.apache.hadoop.fs.Path("/from-a"))).isTrue();
        }
    }

    @Test
    void blockLocationsNameTheDriveHostPerBlockSlice() throws IOException {
        Configuration c = FsTestSupport.embeddedConf();
        c.set("smartssd.device.located.host", "drivehost.example");
        c.setLong(SmartSsdConstants.BLOCK_SIZE, 1 << 20);
        try (FileSystem f = FsTestSupport.newFs("located", c)) {
            org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/big");
            int len = (5 << 20) / 2; // 2.5 blocks
            try (FSDataOutputStream out = f.create(file)) {
                out.write(FsTestSupport.data(len, 1));
            }
            FileStatus st = f.getFileStatus(file);
            assertThat(st.getBlockSize()).isEqualTo(1 << 20);
            BlockLocation[] all = f.getFileBlockLocations(st, 0, len);
            assertThat(all).hasSize(3);
            long[][] expect = {{0, 1 << 20}, {1 << 20, 1 << 20}, {2 << 20, len - (2 << 20)}};
            for (int i = 0; i < 3; i++) {
                assertThat(all[i].getHosts()).containsExactly("drivehost.example");
                assertThat(all[i].getOffset()).isEqualTo(expect[i][0]);
                assertThat(all[i].getLength()).isEqualTo(expect[i][1]);
            }
            BlockLocation[] mid = f.getFileBlockLocations(st, (1 << 20) + 5, 10);
            assertThat(mid).hasSize(1);
            assertThat(mid[0].getOffset()).isEqualTo(1 << 20);
            assertThat(f.getFileBlockLocations(st, len, 10)).isEmpty();
            RemoteIterator<LocatedFileStatus> it = f.listLocatedStatus(
                    new org.apache.hadoop.fs.Path("/"));
            LocatedFileStatus located = it.next();
            assertThat(located.getBlockLocations()).hasSize(3);
            assertThat(located.getBlockLocations()[0].getHosts())
                    .containsExactly("drivehost.example");
        }
    }

    @Test
    void badInputGetsHadoopExceptionsNamingThePath() throws IOException {
        fs.mkdirs(p("/errs/dir/sub"));
        write(p("/errs/file"), new byte[] {1, 2, 3});
        assertThatThrownBy(() -> fs.create(p("/errs/file"), false))
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining("smartssd://unit/errs/file");
        assertThatThrownBy(() -> fs.create(p("/errs/dir"), true))
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining("smartssd://unit/errs/dir");
        assertThatThrownBy(() -> fs.create(p("/errs/file/child"), true))
                .isInstanceOf(ParentNotDirectoryException.class)
                .hasMessageContaining("smartssd://unit/errs/file/child");
        assertThatThrownBy(() -> fs.mkdirs(p("/errs/file/child")))
                .isInstanceOf(ParentNotDirectoryException.class);
        assertThatThrownBy(() -> fs.mkdirs(p("/errs/file")))
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining("smartssd://unit/errs/file");
        assertThatThrownBy(() -> fs.createNonRecursive(p("/errs/missing/f"), null,
                java.util.EnumSet.of(CreateFlag.CREATE), 4096, (short) 1, 1 << 20, null))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("smartssd://unit/errs/missing/f");
        assertThatThrownBy(() -> fs.delete(p("/errs/dir"), false))
                .isInstanceOf(PathIsNotEmptyDirectoryException.class)
                .hasMessageContaining("smartssd://unit/errs/dir");
        assertThatThrownBy(() -> fs.open(p("/errs/nothing")))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("smartssd://unit/errs/nothing");
        assertThatThrownBy(() -> fs.open(p("/errs/dir")))
                .isInstanceOf(FileNotFoundException.class).hasMessageContaining("directory");
        assertThatThrownBy(() -> fs.getFileStatus(p("/errs/file/under")))
                .isInstanceOf(FileNotFoundException.class);
        assertThatThrownBy(() -> fs.listStatus(p("/errs/nothing")))
                .isInstanceOf(FileNotFoundException.class);
        assertThatThrownBy(() -> fs.append(p("/errs/nothing")))
                .isInstanceOf(FileNotFoundException.class);
        assertThat(fs.delete(p("/errs/nothing"), true)).isFalse();
        String longName = "n".repeat(256);
        assertThatThrownBy(() -> fs.mkdirs(p("/errs/" + longName)))
                .isInstanceOf(InvalidPathException.class).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("longer than 255 bytes");
        assertThatThrownBy(() -> fs.create(p("/\u007freserved")))
                .isInstanceOf(InvalidPathException.class).hasMessageContaining("reserved");
        assertThat(fs.getFileStatus(p("/errs/file")).getLen()).isEqualTo(3);
    }

    @Test
    void fullDriveIsAnIoExceptionNamingDriveAndPath(@TempDir Path dir) throws IOException {
        Configuration c = FsTestSupport.embeddedConf();
        c.set(SmartSsdConstants.EMBEDDED_PROFILE, FsTestSupport.tinyProfile(dir).toString());
        c.setLong(SmartSsdConstants.EMBEDDED_CAPACITY, 16L << 20);
        try (FileSystem f = FsTestSupport.newFs("tiny", c)) {
            long free = f.getStatus().getRemaining();
            assertThat(free).isPositive().isLessThan(16L << 20);
            byte[] chunk = FsTestSupport.data(1 << 20, 2);
            int[] files = {0};
            assertThatThrownBy(() -> {
                for (; files[0] < 64; files[0]++) {
                    try (FSDataOutputStream out = f.create(
                            new org.apache.hadoop.fs.Path("/fill/" + files[0]))) {
                        out.write(chunk);
                    }
                }
            }).isInstanceOf(DiskChecker.DiskOutOfSpaceException.class)
                    .hasMessageContaining("smartssd://tiny/fill/")
                    .hasMessageContaining("drive tiny (emu:");
            assertThat((long) files[0] * chunk.length).isLessThanOrEqualTo(free);
            // every file closed before the drive filled up is whole; the failed one is
            // empty (a WRITE is all or nothing)
            for (int i = 0; i < files[0]; i++) {
                try (FSDataInputStream in = f.open(new org.apache.hadoop.fs.Path("/fill/" + i))) {
                    assertThat(in.readAllBytes()).isEqualTo(chunk);
                }
            }
            assertThat(f.getFileStatus(new org.apache.hadoop.fs.Path("/fill/" + files[0]))
                    .getLen()).isZero();
        }
    }

    @Test
    void streamsFlushSyncCloseLikeHdfs() throws IOException {
        org.apache.hadoop.fs.Path file = p("/streams/a");
        byte[] data = FsTestSupport.data(3 << 20, 3);
        AtomicInteger progress = new AtomicInteger();
        FSDataOutputStream out = fs.create(file, true, 4096, progress::incrementAndGet);
        assertThat(out.hasCapability(StreamCapabilities.HFLUSH)).isTrue();
        assertThat(out.hasCapability(StreamCapabilities.HSYNC)).isTrue();
        out.write(data, 0, 1000);
        // buffered: not yet on the drive
        assertThat(fs.getFileStatus(file).getLen()).isZero();
        out.hflush();
        assertThat(fs.getFileStatus(file).getLen()).isEqualTo(1000);
        out.write(data, 1000, data.length - 1000);
        out.hsync();
        // one per buffer sent: the hflush's, and the hsync's (the rest fits one buffer)
        assertThat(progress.get()).isEqualTo(2);
        out.close();
        out.close(); // double close is fine
        assertThatThrownBy(() -> out.write(1)).isInstanceOf(IOException.class)
                .hasMessageContaining("smartssd://unit/streams/a");
        assertThat(read(fs, file)).isEqualTo(data);

        FSDataInputStream in = fs.open(file);
        assertThat(in.hasCapability(StreamCapabilities.READBYTEBUFFER)).isTrue();
        assertThat(in.hasCapability(StreamCapabilities.PREADBYTEBUFFER)).isTrue();
        assertThat(in.hasCapability(StreamCapabilities.VECTOREDIO)).isTrue();
        assertThat(in.hasCapability(StreamCapabilities.HFLUSH)).isFalse();
        ByteBuffer direct = ByteBuffer.allocateDirect(5000);
        in.readFully(2_000_000L, direct);
        direct.flip();
        assertThat(direct.get(0)).isEqualTo(data[2_000_000]);
        assertThat(direct.get(4999)).isEqualTo(data[2_004_999]);
        ByteBuffer heap = ByteBuffer.allocate(10);
        in.seek(data.length - 4);
        assertThat(in.read(heap)).isEqualTo(4);
        assertThat(in.read(heap)).isEqualTo(-1);
        in.close();
        in.close();
        assertThatThrownBy(in::read).isInstanceOf(IOException.class);
    }

    @Test
    void appendTruncateSetTimesAndListing() throws IOException {
        org.apache.hadoop.fs.Path file = p("/more/log");
        write(file, "one\n".getBytes(StandardCharsets.US_ASCII));
        try (FSDataOutputStream out = fs.append(file)) {
            assertThat(out.getPos()).isEqualTo(4);
            out.write("two\n".getBytes(StandardCharsets.US_ASCII));
        }
        assertThat(new String(read(fs, file), StandardCharsets.US_ASCII)).isEqualTo("one\ntwo\n");
        assertThat(fs.truncate(file, 3)).isTrue();
        assertThat(new String(read(fs, file), StandardCharsets.US_ASCII)).isEqualTo("one");
        assertThatThrownBy(() -> fs.truncate(file, 10))
                .isInstanceOf(IllegalArgumentException.class);
        fs.setTimes(file, 1_600_000_000_123L, 1_500_000_000_456L);
        FileStatus st = fs.getFileStatus(file);
        assertThat(st.getModificationTime()).isEqualTo(1_600_000_000_123L);
        assertThat(st.getAccessTime()).isEqualTo(1_500_000_000_456L);
        fs.setTimes(file, -1, 1_500_000_001_000L);
        assertThat(fs.getFileStatus(file).getModificationTime()).isEqualTo(1_600_000_000_123L);

        fs.mkdirs(p("/more/d"));
        List<String> names = new ArrayList<>();
        RemoteIterator<FileStatus> it = fs.listStatusIterator(p("/more"));
        while (it.hasNext()) {
            FileStatus s = it.next();
            names.add(s.getPath().getName() + (s.isDirectory() ? "/" : ":" + s.getLen()));
        }
        assertThat(names).containsExactlyInAnyOrder("log:3", "d/");
        assertThat(fs.listStatus(file)).hasSize(1);
        assertThat(fs.listStatus(file)[0].getPath()).isEqualTo(file);
        assertThat(fs.hasPathCapability(file, CommonPathCapabilities.FS_APPEND)).isTrue();
        assertThat(fs.hasPathCapability(file, CommonPathCapabilities.FS_CONCAT)).isFalse();
        assertThat(fs.hasPathCapability(file,
                CommonPathCapabilities.VIRTUAL_BLOCK_LOCATIONS)).isFalse();
    }

    @Test
    void renameIsAtomicAndFollowsHdfsRules() throws IOException {
        fs.mkdirs(p("/ren/src/deep/er"));
        write(p("/ren/src/deep/er/f"), new byte[] {7});
        write(p("/ren/other"), new byte[] {8});
        assertThat(fs.rename(p("/ren/src"), p("/ren/dst"))).isTrue();
        assertThat(read(fs, p("/ren/dst/deep/er/f"))).containsExactly(7);
        assertThat(fs.exists(p("/ren/src"))).isFalse();
        fs.mkdirs(p("/ren/into"));
        assertThat(fs.rename(p("/ren/dst"), p("/ren/into"))).isTrue();
        assertThat(fs.exists(p("/ren/into/dst/deep/er/f"))).isTrue();
        assertThat(fs.rename(p("/ren/other"), p("/ren/into/dst/deep/er/f"))).isFalse();
        assertThat(fs.rename(p("/ren/into"), p("/ren/into/dst/x"))).isFalse();
        assertThat(fs.rename(p("/ren/missing"), p("/ren/y"))).isFalse();
        assertThat(fs.rename(p("/ren/other"), p("/ren/nodir/y"))).isFalse();
        assertThat(read(fs, p("/ren/other"))).containsExactly(8);
    }

    @Test
    void statisticsCountOperationsCommandsAndBytes() throws IOException {
        FileSystem.Statistics before = new FileSystem.Statistics(
                FileSystem.getStatistics("smartssd", SmartSsdFileSystem.class));
        IOStatistics io = ((SmartSsdFileSystem) fs).getIOStatistics();
        long creates = io.counters().get(StoreStatisticNames.OP_CREATE);
        long writes = io.counters().get(DriveStore.COMMAND_PREFIX + "write");
        write(p("/stats/f"), FsTestSupport.data(100_000, 4));
        read(fs, p("/stats/f"));
        assertThat(io.counters().get(StoreStatisticNames.OP_CREATE)).isEqualTo(creates + 1);
        assertThat(io.counters().get(DriveStore.COMMAND_PREFIX + "write")).isEqualTo(writes + 1);
        FileSystem.Statistics after = FileSystem.getStatistics("smartssd",
                SmartSsdFileSystem.class);
        assertThat(after.getBytesWritten() - before.getBytesWritten()).isEqualTo(100_000);
        assertThat(after.getBytesRead() - before.getBytesRead()).isEqualTo(100_000);
        FsStatus status = fs.getStatus();
        assertThat(status.getCapacity()).isPositive();
        assertThat(status.getUsed() + status.getRemaining()).isEqualTo(status.getCapacity());
    }

    @Test
    void fileContextWorksThroughTheAbstractFileSystemBinding() throws IOException {
        FileContext fc = FileContext.getFileContext(URI.create("smartssd://unit/"),
                FsTestSupport.embeddedConf());
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("smartssd://unit/fc/x");
        try (FSDataOutputStream out = fc.create(file,
                java.util.EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE),
                org.apache.hadoop.fs.Options.CreateOpts.createParent())) {
            out.write(new byte[] {1, 2});
        }
        assertThat(fc.getFileStatus(file).getLen()).isEqualTo(2);
        assertThat(read(fs, file)).containsExactly(1, 2);
        assertThat(Arrays.stream(fs.listStatus(p("/fc"))).map(s -> s.getPath().getName()))
                .containsExactly("x");
    }
}
