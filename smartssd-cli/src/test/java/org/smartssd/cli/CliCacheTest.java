package org.smartssd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.cli.CliUsageTest.Run;
import org.smartssd.device.CacheCounters;
import org.smartssd.device.DriveFullException;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.SolidStateCache;
import org.smartssd.device.TestDrives;

/** smartssd format --cache-share and smartssd info's cache lines, on an emulated drive. */
class CliCacheTest {
    @TempDir
    Path dir;

    private String format(String... share) throws Exception {
        String uri = "emu:" + dir.resolve("c.img");
        String[] args = {"format", uri, "--profile", TestDrives.tinyProfile(dir).toString(),
            "--capacity", "128M"};
        String[] all = new String[args.length + share.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(share, 0, all, args.length, share.length);
        Run r = CliUsageTest.run(all);
        assertThat(r.code()).as(r.err()).isZero();
        return uri;
    }

    /** Through smartssd-devd, so info sees the counters of the same power-on. */
    @Test
    void theDefaultShareIsAQuarterAndInfoShowsTheCountersTheDriveKeeps() throws Exception {
        format();
        CacheCounters c;
        String uri;
        try (Devd devd = Devd.start(dir.resolve("c.img"), dir.resolve("c.sock"),
                Duration.ofSeconds(30)); SmartSsdDevice d = SmartSsdDevice.open(devd.uri())) {
            uri = devd.uri();
            SolidStateCache cache = d.cache();
            byte[] block = new byte[cache.blockSize() * 3];
            cache.writeDirty(40, block, 0, 3);
            cache.read(38, 6, new byte[cache.blockSize() * 6], 0);
            c = cache.counters();
            assertThat(c.sharePermille()).isEqualTo(250);
            assertThat(c.hits()).isEqualTo(3);
            assertThat(c.misses()).isEqualTo(3);
            Run info = CliUsageTest.run("info", uri);
            assertThat(info.code()).as(info.err()).isZero();
            assertThat(info.out()).contains("cache:            25.0 % of the flash, "
                            + c.capacityBlocks() + " blocks of " + c.blockSize()
                            + " bytes, SSC-V")
                    .contains("cache reads:      3 hits, 3 misses since power-on (hit ratio "
                            + "0.500)")
                    .contains("cache blocks:     3 cached, 3 dirty")
                    .contains("cache bad blocks: 0 erase blocks left out")
                    .contains("silent evictions: 0 blocks")
                    .containsPattern("cache write amp\\.: \\d+\\.\\d{3} \\(3 host, \\d+ nand "
                            + "page writes since power-on\\)");
        }
    }

    /**
     * jasmine-openssd has factory-bad blocks (1 %); with its own geometry (32 dies of 64
     * blocks) and the default share, the emulator's factory-bad hash (firmware-tasklets/emu
     * image.c, emu_block_factory_bad) marks 5 blocks of the cache's part bad: 40, 46, 218,
     * 359 and 382 of its 480 (computed apart from the drive). Format used to fail with -EIO.
     */
    @Test
    void aJasmineDriveWithFactoryBadBlocksGetsItsCacheAndInfoCountsThem() throws Exception {
        String uri = "emu:" + dir.resolve("j.img");
        Run f = CliUsageTest.run("format", uri, "--profile", "jasmine-openssd");
        assertThat(f.code()).as(f.err()).isZero();
        Run info = CliUsageTest.run("info", uri);
        assertThat(info.code()).as(info.err()).isZero();
        assertThat(info.out()).contains("cache:            25.0 % of the flash, "
                        + (480 - 5 - 6) * 128 + " blocks of 32768 bytes, SSC-V")
                .contains("cache bad blocks: 5 erase blocks left out (failed at format)");
    }

    @Test
    void aShareOfZeroGivesNoCache() throws Exception {
        String uri = format("--cache-share", "0");
        Run info = CliUsageTest.run("info", uri);
        assertThat(info.out()).contains("cache:            none");
        Run bad = CliUsageTest.run("format", "emu:" + dir.resolve("x.img"), "--cache-share", "95");
        assertThat(bad.code()).isNotZero();
        assertThat(bad.err()).contains("cache share");
    }

    /**
     * The cache manager's traffic (hits, fills, dirty writes, clean operations, cleaned and
     * evicted blocks) in info and the counters, against the operations sent, and still there
     * after smartssd-devd stops and starts again: the drive keeps it in the cache's
     * checkpoints, where the since-power-on hits start from 0 again.
     */
    @Test
    void infoShowsTheTrafficSinceFormatAndItOutlastsARestart() throws Exception {
        format();
        CacheCounters before;
        long bs;
        try (Devd devd = Devd.start(dir.resolve("c.img"), dir.resolve("c.sock"),
                Duration.ofSeconds(30)); SmartSsdDevice d = SmartSsdDevice.open(devd.uri())) {
            SolidStateCache cache = d.cache();
            bs = cache.blockSize();
            cache.writeDirty(100, new byte[(int) bs * 5], 0, 5);   // 5 dirty
            cache.writeClean(200, new byte[(int) bs * 4], 0, 4);   // 4 filled
            cache.read(98, 10, new byte[(int) bs * 10], 0);        // 5 hits (100..104)
            cache.read(200, 2, new byte[(int) bs * 2], 0);         // 2 hits
            cache.clean(100, 3);                                   // 1 operation, 3 cleaned
            cache.clean(103, 4);                                   // 1 operation, 2 cleaned
            cache.evict(199, 3);                                   // 2 of them cached
            before = cache.counters();
            assertThat(before.hitBytes()).isEqualTo(7 * bs);
            assertThat(before.filledBytes()).isEqualTo(4 * bs);
            assertThat(before.dirtyWrittenBytes()).isEqualTo(5 * bs);
            assertThat(before.cleanOps()).isEqualTo(2);
            assertThat(before.cleanedBytes()).isEqualTo(5 * bs);
            assertThat(before.evictedBlocks()).isEqualTo(2);
            assertThat(before.retiredBlocks()).isZero();
            assertThat(before.endurance()).isEqualTo(100_000); // kang-smartssd's rating
            Run info = CliUsageTest.run("info", devd.uri());
            assertThat(info.code()).as(info.err()).isZero();
            assertThat(info.out())
                    .contains("cache bad blocks: 0 erase blocks left out (failed at format), "
                            + "0 retired worn out (endurance 100000 erases)")
                    .contains("cache traffic:    " + 7 * bs + " bytes read as hits, " + 4 * bs
                            + " filled (write-clean), " + 5 * bs + " written dirty since format")
                    .contains("cache write-back: 2 clean operations, " + 5 * bs
                            + " bytes cleaned, 2 blocks evicted since format");
        }
        try (Devd devd = Devd.start(dir.resolve("c.img"), dir.resolve("c.sock"),
                Duration.ofSeconds(30)); SmartSsdDevice d = SmartSsdDevice.open(devd.uri())) {
            CacheCounters after = d.cache().counters();
            assertThat(after.hits()).isZero();
            assertThat(List.of(after.hitBytes(), after.filledBytes(), after.dirtyWrittenBytes(),
                    after.cleanOps(), after.cleanedBytes(), after.evictedBlocks()))
                    .isEqualTo(List.of(7 * bs, 4 * bs, 5 * bs, 2L, 5 * bs, 2L));
        }
    }

    /**
     * A profile rating its blocks at 12 erases: write-clean traffic over ever new blocks
     * (group-committed, so the cache's blocks wear faster than its checkpoint slots) wears
     * cache blocks out; the drive retires them, info shows them and the smaller capacity,
     * and they stay retired across a restart of smartssd-devd.
     */
    @Test
    void wornCacheBlocksAreRetiredAndInfoShowsThemAcrossARestart() throws Exception {
        Path profile = dir.resolve("worn.profile");
        java.nio.file.Files.writeString(profile, java.nio.file.Files.readString(
                        TestDrives.tinyProfile(dir))
                .replaceFirst("(?m)^endurance = .*$", "endurance = 12")
                .replaceFirst("(?m)^endurance_spread_permille = .*$",
                        "endurance_spread_permille = 0"));
        String uri = "emu:" + dir.resolve("w.img");
        Run f = CliUsageTest.run("format", uri, "--profile", profile.toString(), "--capacity",
                "128M");
        assertThat(f.code()).as(f.err()).isZero();
        CacheCounters fresh;
        CacheCounters worn;
        try (Devd devd = Devd.start(dir.resolve("w.img"), dir.resolve("w.sock"),
                Duration.ofSeconds(30)); SmartSsdDevice d = SmartSsdDevice.open(devd.uri())) {
            SolidStateCache cache = d.cache();
            fresh = cache.counters();
            assertThat(fresh.endurance()).isEqualTo(12);
            int n = 64;
            byte[] data = new byte[cache.blockSize() * n];
            long next = 0;
            // 12 erases of every cache block is 12 x its capacity written; bounded at 40 x
            long limit = 40 * fresh.capacityBlocks();
            worn = fresh;
            // wear-levelled, the blocks reach the rating together: they retire in a burst,
            // and the cache may run out of good blocks at once (the typed full error)
            try {
                while (worn.retiredBlocks() == 0) {
                    assertThat(next).as("blocks written before any cache block wore out")
                            .isLessThan(limit);
                    cache.writeClean(next, data, 0, n);
                    next += n;
                    if (next % (16L * n) == 0) {
                        worn = cache.counters();
                    }
                }
            } catch (DriveFullException e) {
                assertThat(e.getMessage()).contains("no good blocks left");
            }
            worn = cache.counters();
            assertThat(worn.retiredBlocks()).isPositive();
            assertThat(worn.capacityBlocks()).isLessThan(fresh.capacityBlocks());
            assertThat((fresh.capacityBlocks() - worn.capacityBlocks()) % worn.retiredBlocks())
                    .isZero(); // whole erase blocks
            Run info = CliUsageTest.run("info", devd.uri());
            assertThat(info.code()).as(info.err()).isZero();
            assertThat(info.out()).contains("cache:            25.0 % of the flash, "
                            + worn.capacityBlocks() + " blocks of")
                    .contains(worn.retiredBlocks() + " retired worn out (endurance 12 erases)");
        }
        try (Devd devd = Devd.start(dir.resolve("w.img"), dir.resolve("w.sock"),
                Duration.ofSeconds(30)); SmartSsdDevice d = SmartSsdDevice.open(devd.uri())) {
            CacheCounters again = d.cache().counters();
            assertThat(again.retiredBlocks()).isEqualTo(worn.retiredBlocks());
            assertThat(again.capacityBlocks()).isEqualTo(worn.capacityBlocks());
        }
    }
}
