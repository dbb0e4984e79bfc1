package org.smartssd.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.InputRange;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.TaskletProgress;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.GroupAggregate.Op;
import org.smartssd.device.tasklet.GroupKey;
import org.smartssd.fs.sscache.CachedFile;

/**
 * The scan execution on an embedded emulated drive, with an engine that keeps each side's
 * output as the drive writes it (what the Spark connector does): every path's merged
 * group-aggregate equals plain Java over the same records, and the stats count what ran
 * (runs, records, parts per side, modelled host time at the calibration's rates, drain
 * rounds). A placed run holds its estimate in this JVM's account of the drive's queue while
 * it runs and gives it back after.
 */
class ScanExecutionTest {
    private static final int RECORDS = 6_000;
    private static final int SIZE = 16;
    private static final RecordLayout LAYOUT = RecordLayout.fixed(SIZE,
            List.of(Field.of(0, FieldType.U16), Field.of(8, FieldType.I64)));
    private static final TaskletSpec SPEC = GroupAggregate.groupBy(0).value(1)
            .ops(Op.COUNT, Op.SUM).spec(LAYOUT, 64 * 1024, 0);
    /** Host rates of the hand-made calibration: link and CPU, ns per byte. */
    private static final double LINK_NS = 3.0;
    private static final double HOST_NS = 2.0;

    @TempDir
    java.nio.file.Path dir;
    private Configuration conf;
    private Path file;
    private Map<Long, List<Long>> expected;

    @BeforeEach
    void writeRecords() throws IOException {
        conf = new Configuration();
        conf.setBoolean("smartssd.device.embedded.allowed", true);
        conf.set("smartssd.device.embedded.dir", dir.resolve("drives").toString());
        conf.set("fs.smartssd.impl", "org.smartssd.fs.SmartSsdFileSystem");
        conf.setLong(ExtentSplits.SPLIT_MAXSIZE, 16 * 1024);
        file = new Path("smartssd://scantest/data/records-" + UUID.randomUUID() + ".bin");
        ByteBuffer b = ByteBuffer.allocate(RECORDS * SIZE);
        Map<Long, long[]> sums = new TreeMap<>();
        Random r = new Random(11);
        for (int i = 0; i < RECORDS; i++) {
            int region = r.nextInt(9);
            long value = r.nextInt(2001) - 1000;
            b.putShort(i * SIZE, (short) region).putLong(i * SIZE + 8, value);
            long[] e = sums.computeIfAbsent((long) region, k -> new long[2]);
            e[0]++;
            e[1] += value;
        }
        expected = new TreeMap<>();
        sums.forEach((k, e) -> expected.put(k, List.of(e[0], e[1])));
        try (FSDataOutputStream out = file.getFileSystem(conf).create(file)) {
            out.write(b.array());
        }
    }

    private List<ScanRange> ranges() throws IOException {
        FileStatus st = file.getFileSystem(conf).getFileStatus(file);
        List<ScanRange> ranges = ExtentSplits.of(conf, List.of(st));
        assertThat(ranges).as("several ranges").hasSizeGreaterThan(3);
        return ranges;
    }

    private static PlacementCalibration calibration() {
        return new PlacementCalibration(4096, SIZE, 0, 0, 0, 100, 1000, LINK_NS, HOST_NS, 0,
                "test rates");
    }

    @Test
    void eachRangeInTheDriveGivesJavasAnswer() throws Exception {
        Engine engine = new Engine();
        ScanStats total = ScanStats.NONE;
        List<ScanRange> ranges = ranges();
        for (int i = 0; i < ranges.size(); i++) {
            total = total.plus(ScanExecution.run(ScanTask.single(conf, SPEC,
                    ScanPart.unplaced(i, ranges.get(i))), engine));
        }
        assertThat(engine.merged()).isEqualTo(expected);
        assertThat(total.device().runs()).isEqualTo(ranges.size());
        assertThat(total.device().records()).isEqualTo(RECORDS);
        assertThat(total.device().bytesRead()).isEqualTo((long) RECORDS * SIZE);
        assertThat(total.device().outputBytes()).isEqualTo(engine.outputBytes.get());
        assertThat(total.inputRecords()).isEqualTo(RECORDS);
        assertThat(total.placement()).isEqualTo(ScanStats.PlacementWork.NONE);
    }

    @Test
    void eachRangeOnTheHostGivesJavasAnswerAndItsModelledTime() throws Exception {
        Engine engine = new Engine();
        ScanStats total = ScanStats.NONE;
        List<ScanRange> ranges = ranges();
        for (int i = 0; i < ranges.size(); i++) {
            total = total.plus(ScanExecution.run(ScanTask.single(conf, SPEC,
                    new ScanPart(i, ranges.get(i), Placement.HOST, 0, 7, calibration())),
                    engine));
        }
        assertThat(engine.merged()).isEqualTo(expected);
        ScanStats.PlacementWork p = total.placement();
        assertThat(p.onHost()).isEqualTo(ranges.size());
        assertThat(p.onDevice()).isZero();
        assertThat(p.estimatedHostNs()).isEqualTo(7L * ranges.size());
        assertThat(p.hostRecords()).isEqualTo(RECORDS);
        assertThat(p.hostBytes()).isEqualTo((long) RECORDS * SIZE);
        assertThat(p.modelledHostNs()).isEqualTo(Math.round(RECORDS * SIZE * (LINK_NS + HOST_NS)));
        assertThat(total.device().runs()).as("nothing ran in the drive").isZero();
        assertThat(engine.deviceRuns.get()).isZero();
    }

    @Test
    void aPlacedRunHoldsItsEstimateInTheDrivesQueueWhileItRuns() throws Exception {
        ScanRange first = ranges().get(0);
        long before = DriveQueue.ownNs(first.drive());
        long[] seen = new long[1];
        Engine engine = new Engine() {
            @Override
            public TaskletRun runOnDevice(ScanPart part) throws IOException {
                seen[0] = DriveQueue.ownNs(part.range().drive());
                return super.runOnDevice(part);
            }
        };
        ScanStats s = ScanExecution.run(ScanTask.single(conf, SPEC,
                new ScanPart(0, first, Placement.DEVICE, 123_456, 0, calibration())), engine);
        assertThat(seen[0]).isEqualTo(before + 123_456);
        assertThat(DriveQueue.ownNs(first.drive())).isEqualTo(before);
        assertThat(s.placement().onDevice()).isEqualTo(1);
        assertThat(s.placement().estimatedDeviceNs()).isEqualTo(123_456);
        assertThat(s.placement().modelledDeviceNs()).as("its output over the link at least")
                .isGreaterThanOrEqualTo(Math.round(s.device().outputBytes() * LINK_NS));
    }

    @Test
    void aDrainedNodeRunsBothSidesAndGivesJavasAnswer() throws Exception {
        List<ScanRange> ranges = ranges();
        List<ScanPart> parts = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
            // estimates that share the ranges out: the host's run on even ones is cheaper
            parts.add(new ScanPart(i, ranges.get(i), i % 2 == 0 ? Placement.HOST
                    : Placement.DEVICE, 1_000, i % 2 == 0 ? 500 : 2_000, calibration()));
        }
        Engine engine = new Engine();
        ScanStats s = ScanExecution.run(ScanTask.drained(conf, SPEC, parts, "node1"), engine);
        assertThat(engine.merged()).isEqualTo(expected);
        ScanStats.PlacementWork p = s.placement();
        assertThat(p.onDevice() + p.onHost()).isEqualTo(ranges.size());
        assertThat(p.onDevice()).isPositive();
        assertThat(p.onHost()).isPositive();
        assertThat(p.drainRounds()).isPositive();
        assertThat(s.device().runs()).isEqualTo(p.onDevice());
        assertThat(s.inputRecords()).isEqualTo(RECORDS);
        assertThat(DriveQueue.ownNs(ranges.get(0).drive())).as("every estimate given back")
                .isZero();
    }

    /** The drive's and the host's outputs kept, merged as partial results at the end. */
    private class Engine implements ScanEngine {
        final List<byte[]> outputs = new ArrayList<>();
        final AtomicLong outputBytes = new AtomicLong();
        final AtomicLong deviceRuns = new AtomicLong();

        @Override
        public TaskletRun runOnDevice(ScanPart part) throws IOException {
            deviceRuns.incrementAndGet();
            DeviceAccess acc = DeviceAccess.of(part.range().path(), conf);
            return TaskletRun.start(acc.device(), SPEC, new InputRange(acc.stat().oid(),
                    part.range().start(), part.range().length()),
                    "/.scan-test/" + UUID.randomUUID() + ".out", Duration.ofMinutes(5), null)
                    .toEnd(Duration.ofSeconds(1));
        }

        @Override
        public synchronized void deviceOutput(ScanPart part, byte[] output,
                                              TaskletProgress done) {
            outputs.add(output);
            outputBytes.addAndGet(output.length);
        }

        @Override
        public HostRead runOnHost(ScanPart part) throws IOException {
            FileSystem fs = part.range().path().getFileSystem(conf);
            HostTasklets.Output o = HostTasklets.run(SPEC, fs, part.range().path(),
                    fs.getFileStatus(part.range().path()).getLen(),
                    List.of(new long[] {part.range().start(), part.range().length()}));
            synchronized (this) {
                outputs.add(o.output());
            }
            return new HostRead(o.bytes(), o.records());
        }

        @Override
        public HostRead runOnHost(ScanPart part, List<long[]> recordIntervals) {
            throw new AssertionError("no sscache:// file here");
        }

        @Override
        public CachedFile cachedFile(ScanPart part) {
            throw new AssertionError("no sscache:// file here");
        }

        @Override
        public String cachedScanOutput(ScanPart part) {
            throw new AssertionError("no sscache:// file here");
        }

        synchronized Map<Long, List<Long>> merged() throws IOException {
            GroupAggregate.Merger m = new GroupAggregate.Merger(true);
            for (byte[] o : outputs) {
                m.addAll(GroupAggregate.decode(o).items());
            }
            Map<Long, List<Long>> got = new TreeMap<>();
            for (Map.Entry<GroupKey, GroupAggregate.Item> e : m.result().entrySet()) {
                got.put(e.getKey().key1(), List.of(e.getValue().count(), e.getValue().sum()));
            }
            return got;
        }
    }
}
