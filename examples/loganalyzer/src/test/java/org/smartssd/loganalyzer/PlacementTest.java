package org.smartssd.loganalyzer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.UUID;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.smartssd.loganalyzer.device.PlacedQueryJob;
import org.smartssd.scan.Placement;
import org.smartssd.mapreduce.PlacementCounters;

/**
 * Q1 and Q2 with every split in the drive, every split on the host, and placed by the planner
 * (auto), on the LocalJobRunner over an embedded drive: each answer equals the one the test
 * computes from the bytes, the counters say where each split ran, and each side's estimate
 * stands beside its modelled time.
 */
@Tag("full")
class PlacementTest {
    private static final int ENTRIES = 24_000;
    private static final long SPLIT_BYTES = 96 * 1024;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {32, 256})
    void everyPlacementAnswersAsTheReference(int es) throws Exception {
        byte[] trace = TestTraces.bytes(ENTRIES, 1400 + es, es);
        LogAnalyzer la = SharedDrive.get();
        LogAnalyzer.DriveFile f = la.put("placement.e" + es, trace, es);
        long splits = (trace.length + SPLIT_BYTES - 1) / SPLIT_BYTES;
        try {
            for (Query q : Query.values()) {
                for (Placement p : Placement.values()) {
                    PlacedQueryJob.Result r = PlacedQueryJob.run(conf(la), q, p, f.path(), es,
                            out(q, p));
                    String what = q + " placement=" + p.cliName() + " at " + es + " B";
                    if (q == Query.Q1) {
                        assertThat(r.answer().accesses()).as(what)
                                .isEqualTo(TestTraces.q1(trace, es));
                    } else {
                        assertThat(TestTraces.rows(r.answer())).as(what)
                                .isEqualTo(TestTraces.q2(trace, es));
                    }
                    Counters c = r.counters();
                    long onDevice = c.findCounter(PlacementCounters.SPLITS_ON_DEVICE).getValue();
                    long onHost = c.findCounter(PlacementCounters.SPLITS_ON_HOST).getValue();
                    assertThat(onDevice + onHost).as(what + ": splits").isEqualTo(splits);
                    switch (p) {
                        case DEVICE -> assertThat(onHost).as(what).isZero();
                        case HOST -> assertThat(onDevice).as(what).isZero();
                        // within 2.5x of each other per page at 32-256 B: both sides take some
                        case AUTO -> {
                            assertThat(onDevice).as(what + ": splits on the device").isPositive();
                            assertThat(onHost).as(what + ": splits on the host").isPositive();
                        }
                    }
                    checkEstimates(what, c, ENTRIES);
                }
            }
        } finally {
            la.remove(f);
        }
    }

    /** The estimates of each side are within a few percent of its modelled time. */
    private static void checkEstimates(String what, Counters c, long entries) {
        long hostRecords = c.findCounter(PlacementCounters.HOST_RECORDS).getValue();
        long deviceSplits = c.findCounter(PlacementCounters.SPLITS_ON_DEVICE).getValue();
        long estD = c.findCounter(PlacementCounters.ESTIMATED_DEVICE_NS).getValue();
        long modD = c.findCounter(PlacementCounters.MODELLED_DEVICE_NS).getValue();
        long estH = c.findCounter(PlacementCounters.ESTIMATED_HOST_NS).getValue();
        long modH = c.findCounter(PlacementCounters.MODELLED_HOST_NS).getValue();
        if (deviceSplits > 0) {
            assertThat(modD).as(what + ": modelled device time").isPositive();
            assertThat((double) estD / modD).as(what + ": device estimate / modelled")
                    .isCloseTo(1.0, within(0.10));
        }
        if (hostRecords > 0) {
            assertThat((double) estH / modH).as(what + ": host estimate / modelled")
                    .isCloseTo(1.0, within(0.02));
            assertThat(c.findCounter(PlacementCounters.HOST_CPU_NS).getValue()).isPositive();
        }
        // every record seen once: the drive's by the tasklets, the host's by the mapper
        assertThat(c.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue()).as(what)
                .isEqualTo(entries);
    }

    private static Configuration conf(LogAnalyzer la) {
        Configuration c = new Configuration(la.conf());
        c.setLong("mapreduce.input.fileinputformat.split.maxsize", SPLIT_BYTES);
        return c;
    }

    private org.apache.hadoop.fs.Path out(Query q, Placement p) {
        return new org.apache.hadoop.fs.Path(dir.resolve(q.cliName() + "-" + p.cliName() + "-"
                + UUID.randomUUID()).toUri());
    }
}
