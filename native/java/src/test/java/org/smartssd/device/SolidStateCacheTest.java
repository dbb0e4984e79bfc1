package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.smartssd.device.tasklet.GroupAggregate;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The solid-state cache's Java API on an emulated drive, in-process (emu:) and through
 * smartssd-devd (unix:), against the test's own model of what each block holds.
 */
class SolidStateCacheTest {
    @TempDir
    Path dir;
    private Devd devd;

    @AfterEach
    void stop() throws Exception {
        if (devd != null) {
            devd.close();
        }
    }

    /** A 4-die drive of 128 MiB (32 rows of 1 MiB blocks): room for a cache part. */
    private String drive(String transport, int sharePercent) throws Exception {
        Path img = dir.resolve("dev0.img");
        SmartSsdDevice.formatEmulated(img, TestDrives.tinyProfile(dir).toString(), 128L << 20, 0,
                sharePercent);
        if (transport.equals("emu")) {
            return "emu:" + img;
        }
        devd = Devd.start(img, dir.resolve("dev0.sock"), Duration.ofSeconds(30));
        return devd.uri();
    }

    private static byte[] pattern(long block, int version, int bs) {
        byte[] b = new byte[bs];
        new Random(block * 31 + version).nextBytes(b);
        return b;
    }

    @ParameterizedTest
    @ValueSource(strings = {"emu", "unix"})
    void operationsAgainstAModel(String transport) throws Exception {
        try (SmartSsdDevice d = SmartSsdDevice.open(drive(transport, 25))) {
            SolidStateCache c = d.cache();
            int bs = c.blockSize();
            assertThat(bs).isEqualTo(d.info().pageSize());
            assertThat(c.capacityBlocks()).isPositive();
            CacheCounters before = c.counters();
            assertThat(before.sharePermille()).isEqualTo(250);
            assertThat(before.dirtyBlocks()).isZero();

            // a range longer than one frame (1 MiB) at a block number far above 2^32
            long base = (1L << 40) + 7;
            int n = 3 * (1 << 20) / bs + 5;
            byte[] data = new byte[n * bs];
            Map<Long, byte[]> model = new HashMap<>();
            BitSet dirty = new BitSet();
            for (int i = 0; i < n; i++) {
                byte[] p = pattern(base + i, 1, bs);
                System.arraycopy(p, 0, data, i * bs, bs);
                model.put(base + i, p);
            }
            c.writeDirty(base, data, 0, n);
            dirty.set(0, n);
            // clean copies of the 10 blocks after them
            byte[] clean = new byte[10 * bs];
            for (int i = 0; i < 10; i++) {
                byte[] p = pattern(base + n + i, 2, bs);
                System.arraycopy(p, 0, clean, i * bs, bs);
                model.put(base + n + i, p);
            }
            c.writeClean(base + n, clean, 0, 10);
            c.evict(base + 3, 2);
            model.remove(base + 3);
            model.remove(base + 4);
            dirty.clear(3, 5);
            c.clean(base + 10, 4);
            dirty.clear(10, 14);

            // read all of it plus 6 blocks never written: misses are zeros, not errors
            int all = n + 16;
            byte[] got = new byte[all * bs];
            BitSet present = BitSet.valueOf(c.read(base, all, got, 0));
            for (int i = 0; i < all; i++) {
                byte[] want = model.get(base + i);
                byte[] block = Arrays.copyOfRange(got, i * bs, (i + 1) * bs);
                if (want == null) {
                    assertThat(present.get(i)).as("block %d absent", i).isFalse();
                    assertThat(block).as("a miss reads as zeros").isEqualTo(new byte[bs]);
                } else {
                    // write-clean may be dropped silently, but never shows other data
                    if (present.get(i)) {
                        assertThat(block).as("block %d", i).isEqualTo(want);
                    } else {
                        assertThat(i).as("only clean blocks may be missing").isGreaterThanOrEqualTo(n);
                    }
                }
            }
            assertThat(BitSet.valueOf(c.exists(base, all))).isEqualTo(dirty);

            CacheCounters after = c.counters();
            assertThat(after.dirtyBlocks()).isEqualTo(dirty.cardinality());
            assertThat(after.hits() - before.hits()).isEqualTo(present.cardinality());
            assertThat(after.misses() - before.misses()).isEqualTo(all - present.cardinality());
            assertThat(after.hostPageWrites()).isEqualTo(n + 10);
            assertThat(after.writeAmplification()).isGreaterThanOrEqualTo(1.0);
        }
    }

    /**
     * A fill that read the backing store before a write and reaches the drive after it
     * must not put the older clean copy over the dirty block, the only copy of the newer
     * data until it is written back: the drive keeps the dirty block, atomically.
     */
    @ParameterizedTest
    @ValueSource(strings = {"emu", "unix"})
    void aCleanCopyNeverReplacesADirtyBlock(String transport) throws Exception {
        try (SmartSsdDevice d = SmartSsdDevice.open(drive(transport, 25))) {
            SolidStateCache c = d.cache();
            int bs = c.blockSize();
            long base = 0x5000_0000_0000L;
            byte[] newer = new byte[3 * bs];
            byte[] older = new byte[3 * bs];
            for (int i = 0; i < 3; i++) {
                System.arraycopy(pattern(base + i, 2, bs), 0, newer, i * bs, bs);
                System.arraycopy(pattern(base + i, 1, bs), 0, older, i * bs, bs);
            }
            c.writeDirty(base + 1, newer, bs, 1);     // block 1 written, not yet written back
            c.writeClean(base, older, 0, 3);          // the late fill of all three

            byte[] got = new byte[3 * bs];
            BitSet present = BitSet.valueOf(c.read(base, 3, got, 0));
            assertThat(present.cardinality()).isEqualTo(3);
            assertThat(Arrays.copyOfRange(got, 0, bs)).isEqualTo(pattern(base, 1, bs));
            assertThat(Arrays.copyOfRange(got, bs, 2 * bs)).as("the dirty block's data")
                    .isEqualTo(pattern(base + 1, 2, bs));
            assertThat(Arrays.copyOfRange(got, 2 * bs, 3 * bs))
                    .isEqualTo(pattern(base + 2, 1, bs));
            assertThat(BitSet.valueOf(c.exists(base, 3))).isEqualTo(BitSet.valueOf(new long[] {2}));

            // written back: the block is clean, and a fill may replace it
            c.clean(base + 1, 1);
            c.writeClean(base + 1, older, bs, 1);
            c.read(base + 1, 1, got, 0);
            assertThat(Arrays.copyOfRange(got, 0, bs)).isEqualTo(pattern(base + 1, 1, bs));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"emu", "unix"})
    void aDriveWithoutACacheSaysSo(String transport) throws Exception {
        try (SmartSsdDevice d = SmartSsdDevice.open(drive(transport, 0))) {
            assertThatThrownBy(d::cache).isInstanceOf(SmartSsdException.class)
                    .hasMessageContaining("no solid-state cache");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"emu"})
    void badRangesAreRefusedBeforeTheDrive(String transport) throws Exception {
        try (SmartSsdDevice d = SmartSsdDevice.open(drive(transport, 25))) {
            SolidStateCache c = d.cache();
            assertThatThrownBy(() -> c.evict(0, 0)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> c.exists(-2L, 2)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("past the last cache block");
            assertThatThrownBy(() -> c.writeDirty(0, new byte[c.blockSize()], 0, 2))
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    /** Dirty blocks are never dropped: once the cache is full of them, writes fail with
     *  DriveFullException and every acknowledged dirty block still reads back. */
    @ParameterizedTest
    @ValueSource(strings = {"emu"})
    void fullOfDirtyDataRefusesAndDropsNothing(String transport) throws Exception {
        try (SmartSsdDevice d = SmartSsdDevice.open(drive(transport, 10))) {
            SolidStateCache c = d.cache();
            int bs = c.blockSize();
            long written = 0;
            int batch = (1 << 20) / bs;
            byte[] data = new byte[batch * bs];
            DriveFullException full = null;
            while (full == null && written <= c.capacityBlocks()) {
                for (int i = 0; i < batch; i++) {
                    System.arraycopy(pattern(written + i, 3, bs), 0, data, i * bs, bs);
                }
                try {
                    c.writeDirty(written, data, 0, batch);
                    written += batch;
                } catch (DriveFullException e) {
                    full = e;
                }
            }
            assertThat(full).as("the cache filled up within its capacity").isNotNull();
            assertThat(full.status().reasonCode()).isEqualTo(Reason.DRIVE_FULL.code());
            // every block of every acknowledged batch is there, dirty
            BitSet dirtyNow = BitSet.valueOf(c.exists(0, (int) written));
            assertThat(dirtyNow.cardinality()).isGreaterThanOrEqualTo((int) written);
            byte[] got = new byte[bs];
            for (long b = 0; b < written; b += 97) {
                c.read(b, 1, got, 0);
                assertThat(got).as("block %d", b).isEqualTo(pattern(b, 3, bs));
            }
        }
    }

    /**
     * SSC_SCAN through the Java API: 100-byte records over raw cache blocks with every
     * other block evicted. The drive's group counts are those of exactly the records that
     * lie inside a present block (the test's own model); the runs name them.
     */
    @ParameterizedTest
    @ValueSource(strings = {"emu", "unix"})
    void scanRunsTheTaskletOverPresentBlocks(String transport) throws Exception {
        try (SmartSsdDevice d = SmartSsdDevice.open(drive(transport, 25))) {
            SolidStateCache c = d.cache();
            int bs = c.blockSize();
            int blocks = 9;
            int rec = 100;
            long fileBytes = (long) blocks * bs - 57;
            byte[] file = new byte[blocks * bs];
            new Random(11).nextBytes(file);
            for (int k = 0; (k + 1) * rec <= fileBytes; k++) {
                file[k * rec] = (byte) (k % 5);
            }
            long base = 0x3000_0000L;
            c.writeClean(base, file, 0, blocks);
            for (int b = 1; b < blocks; b += 2) {
                c.evict(base + b, 1);
            }
            long[] want = new long[5];
            long wantRecords = 0;
            for (long k = 0; (k + 1) * rec <= fileBytes; k++) {
                long first = k * rec / bs;
                long last = (k * rec + rec - 1) / bs;
                if (first == last && first % 2 == 0) {
                    want[file[(int) (k * rec)]]++;
                    wantRecords++;
                }
            }
            RecordLayout layout = RecordLayout.fixed(rec,
                    List.of(RecordLayout.Field.of(0, RecordLayout.FieldType.U8)));
            long out = d.createOutput("/scan/out", SmartSsdDevice.CreateOption.PARENTS);
            long inst = d.createTasklet(GroupAggregate.groupBy(0).value(0)
                    .ops(GroupAggregate.Op.COUNT).spec(layout, 64 * 1024, 0), out);
            List<SolidStateCache.ScanRun> runs = c.scan(inst, fileBytes, null,
                    List.of(new SolidStateCache.ScanRange(base, blocks, 0)));
            assertThat(runs).hasSize((blocks + 1) / 2);
            long records = 0;
            for (SolidStateCache.ScanRun r : runs) {
                assertThat(r.fileBlock() % 2).isZero();
                assertThat(r.blocks()).isEqualTo(1);
                records += r.records();
            }
            assertThat(records).isEqualTo(wantRecords);
            long[] got = new long[5];
            for (GroupAggregate.Item it : GroupAggregate.decode(d.readAllOutput(inst)).items()) {
                got[(int) it.key1()] += it.count();
            }
            assertThat(got).isEqualTo(want);
            assertThatThrownBy(() -> c.scan(inst, fileBytes, new byte[32],
                    List.of(new SolidStateCache.ScanRange(base, blocks, 0))))
                    .isInstanceOf(SmartSsdException.class);
            d.destroy(inst);
        }
    }
}
