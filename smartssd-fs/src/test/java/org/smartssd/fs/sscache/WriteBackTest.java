package org.smartssd.fs.sscache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.smartssd.fs.sscache.SsCacheTestSupport.counter;
import static org.smartssd.fs.sscache.SsCacheTestSupport.data;
import static org.smartssd.fs.sscache.SsCacheTestSupport.read;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.SolidStateCache;

/** sscache:// in write-back mode (FlashTier §4.3.4) on emulated drives. */
class WriteBackTest {
    private static final long WAIT_MS = 120_000;

    /** The content of /crash/fN written by {@link WriteBackChildMain}. */
    static byte[] fileContent(int n) {
        return data(40_000 + 37_013 * (n % 7), 1000 + n);
    }

    private static Configuration conf(String drive, Path backing) {
        Configuration conf = SsCacheTestSupport.conf(drive, backing,
                SsCacheConstants.Mode.WRITE_BACK);
        conf.set("smartssd.cache." + drive + ".dirty.threshold", "1.0");
        return conf;
    }

    private static boolean allDirty(SolidStateCache cache, long first, long count)
            throws Exception {
        long[] bits = cache.exists(first, (int) count);
        for (int i = 0; i < count; i++) {
            if (!BlockCacheIo.bit(bits, i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean noneDirty(SolidStateCache cache, long first, long count)
            throws Exception {
        long[] bits = cache.exists(first, (int) count);
        for (long w : bits) {
            if (w != 0) {
                return false;
            }
        }
        return true;
    }

    @Test
    void aClosedFileLivesDirtyInTheDriveUntilWrittenBack(@TempDir Path dir) throws Exception {
        try (SsCacheFileSystem fs = SsCacheTestSupport.open("wb1", conf("wb1", dir))) {
            WriteBackManager m = fs.writeBackManager();
            byte[] content = data(1_500_000, 1);
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/d/f");
            try (FSDataOutputStream out = fs.create(p)) {
                out.write(content);
            }
            assertThat(Files.exists(dir.resolve("d/f"))).as("written back before it was due")
                    .isFalse();
            assertThat(fs.getFileStatus(p).getLen()).isEqualTo(content.length);
            assertThat(fs.listStatus(new org.apache.hadoop.fs.Path("/d"))).hasSize(1);
            assertThat(read(fs, p)).isEqualTo(content);
            SolidStateCache cache = fs.cache();
            int payload = CacheBlock.payloadBytes(cache.blockSize());
            long blocks = (content.length + payload - 1) / payload;
            long base = CacheBlock.Addresses.dataBase(fs.backing().makeQualified(
                    fs.toBacking(p)).toString());
            assertThat(allDirty(cache, base, blocks)).as("exists over the file's blocks").isTrue();
            assertThat(m.dirtyBlocks()).isEqualTo(blocks);

            assertThat(m.writeBackAll(WAIT_MS)).isZero();
            assertThat(Files.readAllBytes(dir.resolve("d/f"))).isEqualTo(content);
            assertThat(noneDirty(cache, base, blocks)).isTrue();
            assertThat(m.pendingFiles()).isZero();
            assertThat(counter(fs.getIOStatistics(), CacheStatistics.WRITE_BACKS)).isEqualTo(1);
            assertThat(counter(fs.getIOStatistics(), CacheStatistics.WRITE_BACK_BLOCKS))
                    .isEqualTo(blocks);
            // adjacent dirty blocks went back in one backing write per drive READ
            assertThat(counter(fs.getIOStatistics(), CacheStatistics.WRITE_BACK_RUNS))
                    .isEqualTo((blocks + 127) / 128);

            // the written-back blocks are the backing file's cached blocks now
            long backingBytes = counter(fs.getIOStatistics(), CacheStatistics.BYTES_FROM_BACKING);
            assertThat(read(fs, p)).isEqualTo(content);
            assertThat(counter(fs.getIOStatistics(), CacheStatistics.BYTES_FROM_BACKING))
                    .isEqualTo(backingBytes);
        }
    }

    @Test
    void pastTheDirtyThresholdTheLeastRecentlyWrittenFilesGoBackFirst(@TempDir Path dir)
            throws Exception {
        Configuration conf = conf("wb2", dir);
        try (SsCacheFileSystem probe = SsCacheTestSupport.open("wb2", conf)) {
            long capacity = probe.cache().capacityBlocks();
            int payload = CacheBlock.payloadBytes(probe.cache().blockSize());
            probe.close();
            // room for two and a half files of 200 blocks before cleaning is due
            conf.setFloat("smartssd.cache.wb2.dirty.threshold", 500f / capacity);
            try (SsCacheFileSystem fs = SsCacheTestSupport.open("wb2", conf)) {
                for (int i = 0; i < 4; i++) {
                    try (FSDataOutputStream out = fs.create(
                            new org.apache.hadoop.fs.Path("/t/f" + i))) {
                        out.write(data(200 * payload, 20 + i));
                    }
                }
                WriteBackManager m = fs.writeBackManager();
                assertThat(m.awaitDirtyAtMost(500, WAIT_MS)).as("dirty blocks %d ms after the threshold was "
                        + "passed", WAIT_MS).isLessThanOrEqualTo(500);
                assertThat(Files.readAllBytes(dir.resolve("t/f0")))
                        .isEqualTo(data(200 * payload, 20));
                assertThat(Files.exists(dir.resolve("t/f3"))).as("the most recent file")
                        .isFalse();
                for (int i = 0; i < 4; i++) {
                    assertThat(read(fs, new org.apache.hadoop.fs.Path("/t/f" + i)))
                            .isEqualTo(data(200 * payload, 20 + i));
                }
            }
        }
    }

    @Test
    void aBackingStoreFailingMidWriteBackLeavesTheDataDirtyAndIsRetried(@TempDir Path dir)
            throws Exception {
        Configuration conf = conf("wb3", dir);
        conf.set("smartssd.cache.wb3.backing", "faulty://" + dir.toUri().getPath());
        conf.set("fs.faulty.impl", FaultInjectingFileSystem.class.getName());
        conf.setBoolean("fs.faulty.impl.disable.cache", true);
        conf.setLong("smartssd.cache.wb3.writeback.retry.ms", 100);
        FaultInjectingFileSystem.FAILING.incrementAndGet();
        try (SsCacheFileSystem fs = SsCacheTestSupport.open("wb3", conf)) {
            byte[] content = data(900_000, 3);
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/f");
            try (FSDataOutputStream out = fs.create(p)) {
                out.write(content);
            }
            long refused = FaultInjectingFileSystem.REFUSED.get();
            assertThat(fs.writeBackManager().writeBackAll(2_000)).as("files still dirty")
                    .isEqualTo(1);
            assertThat(FaultInjectingFileSystem.REFUSED.get()).isGreaterThan(refused);
            assertThat(counter(fs.getIOStatistics(), CacheStatistics.WRITE_BACK_FAILURES))
                    .isPositive();
            assertThat(read(fs, p)).as("served from the dirty blocks").isEqualTo(content);
            assertThat(fs.writeBackManager().dirtyBlocks()).isPositive();

            FaultInjectingFileSystem.FAILING.decrementAndGet();
            assertThat(fs.writeBackManager().writeBackAll(WAIT_MS)).isZero();
            assertThat(Files.readAllBytes(dir.resolve("f"))).isEqualTo(content);
        } finally {
            FaultInjectingFileSystem.FAILING.set(0);
        }
    }

    @Test
    void aCacheFullOfDirtyDataRefusesWritesClearlyAndDropsNothing(@TempDir Path dir)
            throws Exception {
        Configuration conf = conf("wb4", dir);
        conf.set("smartssd.device.embedded.profile",
                SsCacheTestSupport.tinyProfile(Files.createDirectories(dir.resolve("profile")))
                        .toString());
        conf.set("smartssd.device.embedded.capacity", "128m");
        conf.set("smartssd.cache.wb4.backing", "faulty://" + dir.toUri().getPath());
        conf.set("fs.faulty.impl", FaultInjectingFileSystem.class.getName());
        conf.setBoolean("fs.faulty.impl.disable.cache", true);
        conf.setLong("smartssd.cache.wb4.full.wait.ms", 1_500);
        conf.setLong("smartssd.cache.wb4.writeback.retry.ms", 100);
        FaultInjectingFileSystem.FAILING.incrementAndGet();
        try (SsCacheFileSystem fs = SsCacheTestSupport.open("wb4", conf)) {
            long capacityBytes = fs.cache().capacityBlocks() * fs.cache().blockSize();
            List<Integer> acknowledged = new ArrayList<>();
            Throwable refused = null;
            for (int i = 0; i < 4 * capacityBytes / (1 << 20) + 8 && refused == null; i++) {
                try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path("/full/f" + i))) {
                    out.write(data(1 << 20, 400 + i));
                } catch (java.io.IOException e) {
                    refused = e;
                    break;
                }
                acknowledged.add(i);
            }
            assertThat(refused).as("a write into a cache full of dirty data").isNotNull();
            assertThat(chain(refused)).contains("full of dirty data");
            assertThat(acknowledged).isNotEmpty();
            assertThat(counter(fs.getIOStatistics(), CacheStatistics.FULL_WAITS)).isPositive();

            // a cold read finds no room for its fill: it is served from the backing store,
            // and the refused fill is counted, not dropped silently
            byte[] cold = data(1 << 20, 399);
            Files.write(Files.createDirectories(dir.resolve("cold")).resolve("g"), cold);
            long filled = counter(fs.getIOStatistics(), CacheStatistics.BLOCKS_FILLED);
            assertThat(read(fs, new org.apache.hadoop.fs.Path("/cold/g"))).isEqualTo(cold);
            assertThat(counter(fs.getIOStatistics(), CacheStatistics.FILLS_REFUSED_FULL))
                    .as("fills refused by a cache full of dirty data").isPositive();
            assertThat(counter(fs.getIOStatistics(), CacheStatistics.BLOCKS_FILLED))
                    .isEqualTo(filled);

            // the backing store comes back: every acknowledged file is written back, intact
            FaultInjectingFileSystem.FAILING.decrementAndGet();
            assertThat(fs.writeBackManager().writeBackAll(WAIT_MS)).isZero();
            for (int i : acknowledged) {
                assertThat(Files.readAllBytes(dir.resolve("full/f" + i))).as("f%d", i)
                        .isEqualTo(data(1 << 20, 400 + i));
            }
            assertThat(Files.exists(dir.resolve("full/f" + acknowledged.size())))
                    .as("the refused file").isFalse();

            // one open file larger than the whole cache fails at once: nothing to clean
            assertThatThrownBy(() -> {
                try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path("/big"))) {
                    byte[] chunk = new byte[1 << 20];
                    for (long w = 0; w < 2 * capacityBytes; w += chunk.length) {
                        out.write(chunk);
                    }
                }
            }).satisfies(e -> assertThat(chain(e)).contains("no closed file is left"));
            assertThat(fs.writeBackManager().pendingFiles()).isZero();
        } finally {
            FaultInjectingFileSystem.FAILING.set(0);
        }
    }

    @Test
    void afterTheJvmAndTheDriveDieEveryAcknowledgedFileIsWrittenBack(@TempDir Path dir)
            throws Exception {
        Path img = dir.resolve("c.img");
        Path sock = dir.resolve("c.sock");
        Path backing = Files.createDirectories(dir.resolve("backing"));
        SmartSsdDevice.formatEmulated(img, null, 512L << 20, 0,
                SmartSsdDevice.CACHE_SHARE_DEFAULT);
        Random random = new Random(42);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        Devd devd = Devd.start(img, sock, Duration.ofSeconds(60));
        try {
            int acknowledged = -1;
            for (int round = 0; round < 3; round++) {
                Process child = startChild(devd.uri(), backing.toUri().toString());
                BufferedReader lines = new BufferedReader(new InputStreamReader(
                        child.getInputStream(), StandardCharsets.UTF_8));
                int killAfter = 1 + random.nextInt(6);
                for (int k = 0; k < killAfter; k++) {
                    Future<String> line = pool.submit(lines::readLine);
                    String l = line.get(WAIT_MS, TimeUnit.MILLISECONDS);
                    assertThat(l).as("the child's acknowledgements").startsWith("ACK ");
                    acknowledged = Math.max(acknowledged, Integer.parseInt(l.substring(4)));
                }
                child.destroyForcibly();
                assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the killed child ends").isTrue();
                if (round == 2) {
                    devd.kill(); // and the drive with it
                    devd = Devd.start(img, sock, Duration.ofSeconds(60));
                }
            }
            Configuration conf = new Configuration();
            conf.set("smartssd.device.c.uri", devd.uri());
            conf.set("smartssd.cache.c.backing", backing.toUri().toString());
            conf.set("smartssd.cache.c.mode", "write-back");
            conf.set("smartssd.cache.c.dirty.threshold", "1.0");
            try (SsCacheFileSystem fs = SsCacheTestSupport.open("c", conf)) {
                assertThat(fs.writeBackManager().writeBackAll(WAIT_MS)).isZero();
                for (int n = 0; n <= acknowledged; n++) {
                    assertThat(Files.readAllBytes(backing.resolve("crash/f" + n)))
                            .as("acknowledged file f%d", n).isEqualTo(fileContent(n));
                }
                // files beyond: each either absent or whole (closed before the kill)
                try (var files = Files.list(backing.resolve("crash"))) {
                    for (Path f : files.toList()) {
                        if (f.getFileName().toString().startsWith(".")) {
                            continue;
                        }
                        int n = Integer.parseInt(f.getFileName().toString().substring(1));
                        assertThat(Files.readAllBytes(f)).as("%s", f).isEqualTo(fileContent(n));
                    }
                }
                assertThat(fs.writeBackManager().pendingFiles()).isZero();
                FileStatus st = fs.getFileStatus(new org.apache.hadoop.fs.Path("/crash/f0"));
                assertThat(st.getLen()).isEqualTo(fileContent(0).length);
            }
        } finally {
            pool.shutdownNow();
            devd.close();
        }
    }

    private static Process startChild(String uri, String backing) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-cp",
                System.getProperty("java.class.path")));
        for (String prop : new String[] {"smartssd.native.build", "smartssd.native.path"}) {
            String v = System.getProperty(prop);
            if (v != null) {
                cmd.add("-D" + prop + "=" + v);
            }
        }
        cmd.addAll(List.of(WriteBackChildMain.class.getName(), uri, backing));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static String chain(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage()).append(" <- ");
        }
        return b.toString();
    }
}
