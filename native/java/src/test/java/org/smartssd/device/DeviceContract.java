package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.SmartSsdDevice.CreateOption;
import org.smartssd.device.TestDrives.Trailer;

/**
 * Every libsmartssd operation as a round trip Java -> JNI -> codec -> transport -> firmware
 * -> back, with expected values computed here. Run once per transport by the subclasses.
 */
abstract class DeviceContract {
    @TempDir
    Path dir;
    Path image;
    SmartSsdDevice dev;

    /** Opens the drive on the image through the transport under test. */
    abstract String uriFor(Path image) throws Exception;

    abstract String transport();

    /** Whether the transport carries the emulator's model counters (time, energy). */
    abstract boolean hasModel();

    /** Stops whatever uriFor started. */
    void stopTransport() throws Exception {
    }

    @BeforeEach
    void openDrive() throws Exception {
        image = TestDrives.image(dir);
        dev = SmartSsdDevice.open(uriFor(image));
    }

    @AfterEach
    void closeDrive() throws Exception {
        if (dev != null) {
            dev.close();
        }
        stopTransport();
    }

    @Test
    void driveInfoSpaceAndCounters() throws Exception {
        DriveInfo i = dev.info();
        assertThat(i.transport()).isEqualTo(transport()).isEqualTo(dev.transport());
        assertThat(i.protoVersion()).isEqualTo(1);
        // kang-smartssd: 16 channels x 4 ways, 8 KiB pages, 128-page tasklet batches
        assertThat(i.channels()).isEqualTo(16);
        assertThat(i.ways()).isEqualTo(4);
        assertThat(i.pageSize()).isEqualTo(8192);
        assertThat(i.ispBatchPages()).isEqualTo(128);
        assertThat(i.model()).contains("KANG");
        // 256 MiB raw less over-provisioning and metadata
        assertThat(i.capacityBytes()).isBetween(128L << 20, 256L << 20);
        FsStat s = dev.fsStat();
        assertThat(s.freeBytes()).isPositive().isLessThanOrEqualTo(s.capacityBytes());
        assertThat(s.objects()).isEqualTo(1); // the root
        assertThat(s.pageSize()).isEqualTo(8192);

        DriveCounters before = dev.counters();
        long oid = dev.create("/c", ObjectType.FILE);
        dev.write(oid, 0, ByteBuffer.allocateDirect(64 * 8192), true);
        dev.flush();
        DriveCounters after = dev.counters();
        assertThat(after.hostPageWrites() - before.hostPageWrites()).isGreaterThanOrEqualTo(64);
        assertThat(after.nandPageWrites()).isGreaterThan(before.nandPageWrites());
        assertThat(after.powerOnNs()).isGreaterThan(before.powerOnNs());

        if (!hasModel()) {
            assertThat(dev.modelCounters()).isEmpty();
            return;
        }
        ModelCounters m = dev.modelCounters().orElseThrow();
        assertThat(m.linkBytesIn()).isGreaterThanOrEqualTo(64 * 8192);
        assertThat(m.energyTotalNj()).isEqualTo(m.energyNandReadNj() + m.energyNandProgramNj()
                + m.energyNandEraseNj() + m.energyLinkNj() + m.energyIspNj() + m.energyIdleNj());
    }

    @Test
    void namespaceAndDataRoundTrip() throws Exception {
        long d = dev.mkdirs("/logs/2024");
        assertThat(dev.lookup("/logs/2024").oid()).isEqualTo(d);
        assertThat(dev.lookup("/logs").type()).isEqualTo(ObjectType.DIRECTORY);
        long f = dev.create("/logs/2024/a.log", ObjectType.FILE, CreateOption.EXCLUSIVE);

        byte[] data = new byte[3 * 1024 * 1024 + 123]; // spans several protocol commands
        new Random(7).nextBytes(data);
        ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).flip();
        assertThat(dev.write(f, 0, direct, false)).isEqualTo(data.length);
        assertThat(direct.remaining()).isZero();
        dev.write(f, data.length, "tail".getBytes(StandardCharsets.US_ASCII), 0, 4, true);

        ObjectStat st = dev.stat(f);
        assertThat(st.size()).isEqualTo(data.length + 4L);
        assertThat(st.name()).isEqualTo("a.log");
        assertThat(st.parent()).isEqualTo(d);
        assertThat(st.type()).isEqualTo(ObjectType.FILE);
        assertThat(dev.lookup("/logs/2024/a.log")).isEqualTo(st);
        assertThat(dev.stat(d).children()).isEqualTo(1);

        ByteBuffer back = ByteBuffer.allocateDirect(data.length + 100);
        assertThat(dev.read(f, 0, back)).isEqualTo(data.length + 4);
        back.flip();
        byte[] got = new byte[data.length];
        back.get(got);
        assertThat(got).isEqualTo(data);
        byte[] tail = new byte[4];
        back.get(tail);
        assertThat(new String(tail, StandardCharsets.US_ASCII)).isEqualTo("tail");
        // heap buffers go through the device's staging buffers
        byte[] mid = new byte[1000];
        assertThat(dev.read(f, 5000, mid, 0, mid.length)).isEqualTo(1000);
        assertThat(mid).isEqualTo(java.util.Arrays.copyOfRange(data, 5000, 6000));
        assertThat(dev.read(f, data.length + 4, ByteBuffer.allocateDirect(10))).isZero();

        List<Extent> ext = dev.extents(f, 0, data.length + 4);
        assertThat(ext).isNotEmpty();
        assertThat(ext.get(0).offset()).isZero();
        long covered = ext.stream().mapToLong(e -> e.sectors() * 512).sum();
        assertThat(covered).isGreaterThanOrEqualTo(data.length + 4L);

        dev.truncate(f, 10);
        assertThat(dev.stat(f).size()).isEqualTo(10);
        long mtime = 1_700_000_000_123_456_789L;
        dev.setTimes(f, mtime, -1);
        assertThat(dev.stat(f).mtimeNs()).isEqualTo(mtime);

        dev.create("/logs/2024/b.log", ObjectType.FILE);
        dev.rename("/logs/2024/b.log", "/logs/b.log", true);
        assertThat(dev.list("/logs").stream().map(DirEntry::name).sorted())
                .containsExactly("2024", "b.log");
        assertThat(dev.list("/logs/2024")).extracting(DirEntry::name, DirEntry::type)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a.log", ObjectType.FILE));
        dev.remove("/logs", true);
        assertThat(dev.find("/logs")).isEmpty();
        assertThat(dev.list("/")).isEmpty();
        dev.flush();
        assertThat(dev.bytesToDrive()).isEqualTo(data.length + 4L + 0);
    }

    @Test
    void readRangesFillsTheBufferBackToBackShortOnlyAtTheEnd() throws Exception {
        long f = dev.create("/ranges", ObjectType.FILE);
        byte[] data = new byte[100_000];
        new Random(3).nextBytes(data);
        dev.write(f, 0, data, 0, data.length, false);
        long[] offsets = {90_000, 0, 4096, 99_000};
        int[] lens = {5000, 100, 8192, 4000};
        ByteBuffer dst = ByteBuffer.allocateDirect(17_292);
        assertThat(dev.readRanges(f, offsets, lens, dst, 4)).containsExactly(5000, 100, 8192,
                1000);
        assertThat(dst.position()).isEqualTo(17_292);
        int at = 0;
        for (int i = 0; i < offsets.length; i++) {
            int n = (int) Math.min(lens[i], data.length - offsets[i]);
            byte[] got = new byte[n];
            dst.get(at, got);
            assertThat(got).as("range %d", i).isEqualTo(java.util.Arrays.copyOfRange(data,
                    (int) offsets[i], (int) offsets[i] + n));
            at += lens[i];
        }
    }

    @Test
    void aLoneTaskOnTheEnergyLedgerGetsThePeriodsWholeEnergy() throws Exception {
        java.util.Optional<SharedDriveEnergy.Ticket> t = SharedDriveEnergy.join(dev, 0);
        if (!hasModel()) {
            assertThat(t).isEmpty();
            return;
        }
        SharedDriveEnergy.Ticket ticket = t.orElseThrow();
        dev.write(dev.create("/ledger", ObjectType.FILE), 0, new byte[8192], 0, 8192, true);
        SharedDriveEnergy.Share s = ticket.leave(Duration.ofSeconds(30));
        assertThat(s.tasks()).isEqualTo(1);
        assertThat(s.clients()).isEqualTo(1);
        assertThat(s.periodNj()).isPositive();
        assertThat(s.taskNj()).isEqualTo(s.periodNj());
        assertThat(s.pages()).isZero();
        assertThatThrownBy(() -> ticket.leave(Duration.ofSeconds(1)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void namedAttributesRoundTripAndFollowTheObject() throws Exception {
        long f = dev.create("/attr/t", ObjectType.FILE, CreateOption.PARENTS);
        ObjectAttributes attrs = dev.attributes();
        byte[] layout = "{\"recordSize\":20,\"fields\":[]}".getBytes(StandardCharsets.UTF_8);
        attrs.set(f, "user.smartssd.layout", layout, false, false);
        attrs.set(f, "user.\u00e9t\u00e9", new byte[0], true, false);
        assertThat(attrs.get(f, "user.smartssd.layout")).isEqualTo(layout);
        assertThat(attrs.get(f, "user.\u00e9t\u00e9")).isEmpty();
        assertThat(attrs.list(f)).containsExactly("user.smartssd.layout", "user.\u00e9t\u00e9");
        assertThatThrownBy(() -> attrs.set(f, "user.\u00e9t\u00e9", new byte[1], true, false))
                .isInstanceOf(ObjectExistsException.class);
        assertThatThrownBy(() -> attrs.set(f, "user.none", new byte[1], false, true))
                .isInstanceOf(SmartSsdException.class).hasMessageContaining("user.none");
        assertThatThrownBy(() -> attrs.get(f, "user.none"))
                .isInstanceOf(SmartSsdException.class);
        assertThatThrownBy(() -> attrs.set(f, "n".repeat(256), new byte[1], false, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 255");
        assertThatThrownBy(() -> attrs.set(f, "user.big", new byte[1025], false, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1024");
        assertThatThrownBy(() -> attrs.set(f, "user.x", new byte[1], true, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("create and replace");
        // within the value limit, over the object's: the drive refuses it
        assertThatThrownBy(() -> attrs.set(f, "user.big", new byte[1000], false, false))
                .isInstanceOf(SmartSsdError.class).hasMessageContaining("1024");
        attrs.remove(f, "user.\u00e9t\u00e9");
        assertThat(attrs.list(f)).containsExactly("user.smartssd.layout");

        dev.rename("/attr/t", "/attr/u", true);
        assertThat(attrs.get(f, "user.smartssd.layout")).isEqualTo(layout);
        dev.remove("/attr/u", false);
        assertThatThrownBy(() -> attrs.get(f, "user.smartssd.layout"))
                .isInstanceOf(NoSuchObjectException.class);
    }

    @Test
    void listingSpansManyCommands() throws Exception {
        dev.mkdirs("/many");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            names.add(String.format("f%03d", i));
            dev.create("/many/" + names.get(i), ObjectType.FILE);
        }
        assertThat(dev.list("/many").stream().map(DirEntry::name).sorted().toList())
                .isEqualTo(names);
    }

    @Test
    void clientStatisticsCountCallsErrorsBytesAndRuns() throws Exception {
        byte[] text = TestDrives.lines(20_000, 5).getBytes(StandardCharsets.US_ASCII);
        ClientStatistics s0 = dev.statistics();
        assertThat(s0.reconnects()).isZero();
        assertThat(dev.statistics()).as("reading the statistics is no call").isEqualTo(s0);

        long in = dev.create("/stats/lines.txt", ObjectType.FILE, CreateOption.PARENTS);
        dev.write(in, 0, ByteBuffer.wrap(text), false);
        ClientStatistics s1 = dev.statistics();
        assertThat(s1.bytesToDrive() - s0.bytesToDrive()).isEqualTo(text.length);
        assertThat(s1.calls()).isGreaterThan(s0.calls());
        assertThat(s1.errors()).isEqualTo(s0.errors());

        assertThatThrownBy(() -> dev.lookup("/stats/missing"))
                .isInstanceOf(NoSuchObjectException.class);
        ClientStatistics s2 = dev.statistics();
        assertThat(s2.errors() - s1.errors()).isEqualTo(1);
        assertThat(s2.calls() - s1.calls()).isEqualTo(1);

        ByteBuffer back = ByteBuffer.allocateDirect(text.length);
        assertThat(dev.read(in, 0, back)).isEqualTo(text.length);
        ClientStatistics s3 = dev.statistics();
        assertThat(s3.bytesFromDrive() - s2.bytesFromDrive()).isEqualTo(text.length);

        long out = dev.createOutput("/stats/count", CreateOption.PARENTS);
        long count = dev.createTasklet(new TaskletSpec(TestDrives.GREP, RecordLayout.lines(4096),
                TestDrives.grepParams(false, "hit"), 64 * 1024, 0), out);
        dev.execute(count, List.of(InputRange.whole(in)));
        assertThat(dev.await(count, Duration.ofSeconds(60), null).state())
                .isEqualTo(TaskletState.DONE);
        byte[] result = dev.readAllOutput(count);
        dev.destroy(count);
        ClientStatistics s4 = dev.statistics();
        assertThat(s4.taskletRuns() - s3.taskletRuns()).isEqualTo(1);
        assertThat(s4.bytesFromDrive() - s3.bytesFromDrive()).isEqualTo(result.length);
        assertThat(s4.errors()).isEqualTo(s2.errors());
        assertThat(s4.reconnects()).isZero();
    }

    @Test
    void grepTaskletCountsAndEmitsLines() throws Exception {
        int n = 50_000;
        int k = 7;
        byte[] text = TestDrives.lines(n, k).getBytes(StandardCharsets.US_ASCII);
        long in = dev.create("/in/lines.txt", ObjectType.FILE, CreateOption.PARENTS);
        dev.write(in, 0, ByteBuffer.wrap(text), false);
        List<String> hits = TestDrives.hitLines(n, k);

        long out = dev.createOutput("/out/count", CreateOption.PARENTS);
        long count = dev.createTasklet(new TaskletSpec(TestDrives.GREP, RecordLayout.lines(4096),
                TestDrives.grepParams(false, "hit"), 64 * 1024, 0), out);
        dev.execute(count, List.of(InputRange.whole(in)));
        TaskletProgress p = dev.await(count, Duration.ofSeconds(60), null);
        assertThat(p.state()).isEqualTo(TaskletState.DONE);
        assertThat(p.records()).isEqualTo(n);
        Trailer t = Trailer.of(dev.readAllOutput(count));
        assertThat(t.magic()).isEqualTo(TestDrives.TRAILER_MAGIC);
        assertThat(t.taskletId()).isEqualTo(TestDrives.GREP);
        assertThat(t.recordsIn()).isEqualTo(n);
        assertThat(t.aux()).isEqualTo(hits.size());
        assertThat(dev.stat(out).type()).isEqualTo(ObjectType.OUTPUT);
        dev.destroy(count);
        assertThatThrownBy(() -> dev.poll(count)).isInstanceOf(NoSuchObjectException.class);

        long out2 = dev.createOutput("/out/lines", true);
        long emit = dev.createTasklet(new TaskletSpec(TestDrives.GREP, RecordLayout.lines(4096),
                TestDrives.grepParams(true, "hit"), 64 * 1024, 0), out2);
        dev.execute(emit, List.of(InputRange.whole(in)));
        TaskletProgress done = dev.await(emit, Duration.ofSeconds(60), null);
        byte[] all = dev.readAllOutput(emit);
        assertThat(done.outputBytes()).isEqualTo(all.length);
        String body = new String(all, 0, all.length - TestDrives.TRAILER, StandardCharsets.US_ASCII);
        assertThat(body).isEqualTo(String.join("\n", hits) + "\n");
        // output read in small pieces through a heap buffer gives the same bytes
        ByteBuffer piece = ByteBuffer.allocate(777);
        ByteBuffer joined = ByteBuffer.allocate(all.length);
        long off = 0;
        int r;
        while ((r = dev.readOutput(emit, off, piece.clear())) > 0) {
            joined.put(piece.flip());
            off += r;
        }
        assertThat(joined.array()).isEqualTo(all);
        dev.destroy(emit);
    }

    @Test
    void groupAggregateOverFixedRecords() throws Exception {
        // WorldCup98-like 20-byte big-endian records: size u32 at 12, region = top 3 bits of
        // the server byte at 19
        int n = 20_000;
        ByteBuffer recs = ByteBuffer.allocate(n * 20).order(ByteOrder.BIG_ENDIAN);
        Random rnd = new Random(42);
        Map<Long, long[]> expect = new TreeMap<>(); // region -> {count, sum}
        for (int i = 0; i < n; i++) {
            int region = rnd.nextInt(4);
            int size = rnd.nextInt(100_000);
            recs.putInt(i * 20, i).putInt(i * 20 + 4, rnd.nextInt()).putInt(i * 20 + 8, 3)
                    .putInt(i * 20 + 12, size);
            recs.put(i * 20 + 19, (byte) ((region << 5) | rnd.nextInt(32)));
            long[] e = expect.computeIfAbsent((long) region, x -> new long[2]);
            e[0]++;
            e[1] += size;
        }
        long in = dev.create("/wc98", ObjectType.FILE);
        dev.write(in, 0, recs, false);
        RecordLayout wc = RecordLayout.fixed(20, List.of(Field.of(12, FieldType.U32),
                new Field(19, FieldType.U8, 0, 5, 3)));
        long out = dev.createOutput("/agg.out", true);
        long inst = dev.createTasklet(new TaskletSpec(TestDrives.GROUP_AGG, wc,
                TestDrives.aggParams(1, 0, 0x1 | 0x2), 64 * 1024, 0), out);
        // two splits at a non-record boundary: each record counted once
        long half = n * 20L / 2 + 7;
        dev.execute(inst, List.of(new InputRange(in, 0, half),
                new InputRange(in, half, InputRange.TO_END)));
        dev.await(inst, Duration.ofSeconds(60), null);
        byte[] o = dev.readAllOutput(inst);
        Trailer t = Trailer.of(o);
        assertThat(t.recordsIn()).isEqualTo(n);
        Map<Long, long[]> got = new TreeMap<>();
        ByteBuffer b = ByteBuffer.wrap(o).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < t.itemsOut(); i++) {
            long key = b.getLong(i * 48);
            long[] g = got.computeIfAbsent(key, x -> new long[2]);
            g[0] += b.getLong(i * 48 + 16);
            g[1] += b.getLong(i * 48 + 24);
        }
        assertThat(got).hasSameSizeAs(expect);
        expect.forEach((key, e) -> assertThat(got.get(key)).as("region %d", key).containsExactly(e));
        dev.destroy(inst);
    }

    @Test
    void awaitReportsMonotonicProgressToCompletion() throws Exception {
        byte[] text = TestDrives.lines(400_000, 3).getBytes(StandardCharsets.US_ASCII);
        List<TaskletProgress> seen = new ArrayList<>();
        long inst = startGrep("/big", text);
        TaskletProgress last = dev.await(inst, Duration.ofSeconds(60), seen::add);
        assertThat(seen).isNotEmpty();
        for (int i = 1; i < seen.size(); i++) {
            assertThat(seen.get(i).pagesDone()).isGreaterThanOrEqualTo(seen.get(i - 1).pagesDone());
        }
        long pages = (text.length + 8191) / 8192;
        assertThat(last.pagesTotal()).isEqualTo(pages);
        assertThat(last.pagesDone()).isEqualTo(pages);
        assertThat(last.finishedNs()).isGreaterThan(last.startedNs());
        assertThat(last.instructions()).isPositive();
        dev.destroy(inst);
    }

    /** The drive's queue: nothing on an idle drive, a run's pages while it is under way (if
     *  the drive has not finished it by the time it answers), nothing once it has ended. */
    @Test
    void ispQueueReportsRunsUnderWayOnly() throws Exception {
        IspQueue idle = dev.ispQueue().orElseThrow();
        assertThat(idle.instances()).isZero();
        assertThat(idle.pagesRemaining()).isZero();
        assertThat(idle.backlogNs()).isZero();
        assertThat(idle.hasBacklogEstimate()).isTrue();
        assertThat(idle.pageNs()).isPositive();
        byte[] text = TestDrives.lines(200_000, 5).getBytes(StandardCharsets.US_ASCII);
        long inst = startGrep("/q", text);
        IspQueue during = dev.ispQueue().orElseThrow();
        long pages = (text.length + 8191) / 8192;
        assertThat(during.instances()).isBetween(0L, 1L);
        assertThat(during.pagesRemaining()).isBetween(0L, pages);
        assertThat(during.backlogNs())
                .isGreaterThanOrEqualTo(during.pagesRemaining() * idle.pageNs());
        assertThat(dev.await(inst, Duration.ofSeconds(60), p -> { }).state())
                .isEqualTo(TaskletState.DONE);
        assertThat(dev.ispQueue()).contains(new IspQueue(0, 1, 0, 0, idle.pageNs()));
        dev.destroy(inst);
    }

    /** Writes {@code text} to NAME.txt and starts a grep run counting "hit" lines over it,
     *  into NAME.out. Returns the instance. */
    private long startGrep(String name, byte[] text) throws Exception {
        long in = dev.create(name + ".txt", ObjectType.FILE);
        dev.write(in, 0, ByteBuffer.wrap(text), false);
        long out = dev.createOutput(name + ".out", true);
        long inst = dev.createTasklet(new TaskletSpec(TestDrives.GREP, RecordLayout.lines(4096),
                TestDrives.grepParams(false, "hit"), 64 * 1024, 0), out);
        dev.execute(inst, List.of(InputRange.whole(in)));
        return inst;
    }

    @Test
    void healthAttributesFollowTheDrivesCounters() throws Exception {
        SmartHealth before = dev.health();
        assertThat(before.overall()).isEqualTo(SmartHealth.Overall.GOOD);
        assertThat(before.statusGood()).isTrue();
        long oid = dev.create("/h", ObjectType.FILE);
        int bytes = 10 * 8192 + 100;
        dev.write(oid, 0, ByteBuffer.allocateDirect(bytes), true);
        SmartHealth after = dev.health();
        DriveCounters c = dev.counters();
        long sectors = (bytes + 511) / 512;
        assertThat(after.attribute("host-sectors-written").raw()
                - before.attribute("host-sectors-written").raw()).isEqualTo(sectors);
        assertThat(after.attribute("retired-blocks").raw()).isEqualTo(c.retiredBlocks());
        assertThat(after.attribute("average-erase-count").raw()).isEqualTo(c.avgEraseCount());
        assertThat(after.attribute("temperature").raw()).isEqualTo(40); // profile
        assertThat(after.attributes()).extracting(SmartAttribute::id)
                .contains(5, 9, 12, 177, 194, 241, 242);
    }

    @Test
    void concurrentCallersEachGetTheirOwnData() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<byte[][]>> fs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                fs.add(pool.submit(() -> {
                    byte[] data = new byte[300_000 + id];
                    new Random(id).nextBytes(data);
                    long oid = dev.create("/t" + id, ObjectType.FILE);
                    dev.write(oid, 0, ByteBuffer.wrap(data), false);
                    byte[] back = new byte[data.length];
                    dev.read(oid, 0, ByteBuffer.wrap(back));
                    return new byte[][] {data, back};
                }));
            }
            for (Future<byte[][]> f : fs) {
                // bounded: a lost wake-up in the transport once hung this call for good
                byte[][] r = f.get(120, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(r[1]).isEqualTo(r[0]);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void closedDeviceRefusesCalls() throws Exception {
        dev.close();
        dev.close();
        assertThat(dev.isClosed()).isTrue();
        assertThatThrownBy(() -> dev.info()).isInstanceOf(TransportClosedException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void energyReportCoversTheJob() throws Exception {
        EnergyAccountant acc = new EnergyAccountant(dev, HostPowerProfile.KANG_2014);
        EnergyAccountant.Measurement m = acc.begin();
        long link0 = dev.bytesToDrive() + dev.bytesFromDrive();
        byte[] text = TestDrives.lines(20_000, 5).getBytes(StandardCharsets.US_ASCII);
        long inst = startGrep("/e", text);
        dev.await(inst, Duration.ofSeconds(60), null);
        long link1 = dev.bytesToDrive() + dev.bytesFromDrive();
        EnergyReport r = m.end();
        assertThat(r.hostCpuSeconds()).isGreaterThanOrEqualTo(0);
        assertThat(r.hostJoules()).isPositive();
        if (!hasModel()) {
            // no device counters over this transport: the host's own count of link bytes
            assertThat(r.deviceModelled()).isFalse();
            assertThat(r.deviceJoules()).isNaN();
            assertThat(r.linkBytes()).isEqualTo(link1 - link0);
            dev.destroy(inst);
            return;
        }
        assertThat(r.deviceModelled()).isTrue();
        assertThat(r.deviceJoules()).isPositive();
        EnergyReport.DeviceEnergy e = r.device();
        assertThat(e.nandRead() + e.nandProgram() + e.nandErase() + e.link() + e.isp() + e.idle())
                .isCloseTo(r.deviceJoules(), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(e.isp()).isPositive();
        assertThat(r.deviceTimeNs()).isPositive();
        // the drive saw at least what this host sent and received
        assertThat(r.linkBytes()).isGreaterThanOrEqualTo(link1 - link0);
        assertThat(r.linkBytes()).isGreaterThanOrEqualTo(text.length);
        dev.destroy(inst);
    }
}
