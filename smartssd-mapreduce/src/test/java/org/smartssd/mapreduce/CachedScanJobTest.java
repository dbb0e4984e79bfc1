package org.smartssd.mapreduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;
import org.smartssd.device.TaskletSpec;
import org.smartssd.device.tasklet.GroupAggregate;
import org.smartssd.device.tasklet.GroupAggregate.Op;
import org.smartssd.fs.SmartSsdConstants;
import org.smartssd.fs.sscache.CachedFile;
import org.smartssd.fs.sscache.SsCacheConstants;
import org.smartssd.fs.sscache.SsCacheFileSystem;
import org.smartssd.scan.Placement;

/**
 * A device job over an {@code sscache://} file on the LocalJobRunner (embedded drive, a
 * {@code file://} backing folder): 100-byte records on the drive's 8 KiB cache blocks
 * (8128 bytes of file each, so records straddle blocks), three block-aligned splits. Cold
 * (nothing cached: all on the host), warm (all cached: all in the drive but the records
 * across split edges), partial (every other block evicted: mixed) and a file changed behind
 * the cache's back (the drive's scan stops at a stale block, the host does it, and the next
 * run uses the new blocks). Each answer equals plain Java over the generated records and the
 * same job over a {@code smartssd://} copy (the plain, uncached scan); the counters split
 * the records between drive and host exactly as the test's own model of the blocks says.
 */
class CachedScanJobTest {
    static final int REC = 100;
    static final int N = 3000;
    static final long SPLIT = 128 * 1024;
    static final RecordLayout LAYOUT = RecordLayout.fixed(REC, List.of(
            Field.of(0, FieldType.U32), Field.of(4, FieldType.U16), Field.of(8, FieldType.I64)));
    static final TaskletSpec SPEC = GroupAggregate.groupBy(1).value(2)
            .ops(Op.COUNT, Op.SUM, Op.MIN, Op.MAX).spec(LAYOUT, 64 * 1024, 0);

    @TempDir
    java.nio.file.Path dir;

    /** The requests as 100-byte big-endian records: id u32, region u16, 0 u16, value i64,
     *  then filler. */
    static byte[] bytes(Requests data) {
        ByteBuffer b = ByteBuffer.allocate(N * REC);
        for (Requests.Request r : data.all()) {
            int at = b.position();
            b.putInt((int) r.id()).putShort((short) r.region()).putShort((short) 0)
                    .putLong(r.value());
            while (b.position() < at + REC) {
                b.put((byte) (r.id() * 7 + b.position()));
            }
        }
        return b.array();
    }

    /** A drive name per test: the JVM keeps an embedded drive, and Hadoop a FileSystem, per
     *  name, with the first test's backing folder. */
    private Configuration conf(String drive) {
        Configuration conf = Drives.local(dir);
        conf.set(SsCacheConstants.CACHE_PREFIX + drive + SsCacheConstants.BACKING_SUFFIX,
                dir.resolve("backing").toUri().toString());
        conf.setLong("mapreduce.input.fileinputformat.split.maxsize", SPLIT);
        // the smartssd:// copy is written first: its embedded drive needs the cache part too
        conf.setInt(SmartSsdConstants.EMBEDDED_CACHE_SHARE, 25);
        return conf;
    }

    private Counters run(Configuration conf, Path input, Requests data) throws Exception {
        DeviceJob job = DeviceJob.getInstance(new Configuration(conf), "cached " + UUID.randomUUID());
        job.setDeviceMapper(SPEC);
        job.setDeviceMapperFormat(AggregateFormat.class);
        job.setHostMapper(RequestStatsHostMapper.class);
        job.setReducerClass(AggregateReducer.class);
        job.setNumReduceTasks(1);
        job.addInputPath(input);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        Path out = new Path(dir.resolve("out-" + UUID.randomUUID()).toUri());
        FileOutputFormat.setOutputPath(job, out);
        assertThat(job.waitForCompletion(false)).as("job: %s", job.failureReason()).isTrue();
        Map<Long, long[]> expect = data.statsByRegion();
        Map<Long, long[]> got = Drives.readStats(job.getConfiguration(), out);
        assertThat(got.keySet()).isEqualTo(expect.keySet());
        expect.forEach((k, e) -> assertThat(got.get(k)).as("region %d", k).containsExactly(e));
        Counters c = job.getCounters();
        assertThat(c.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue()).isEqualTo(N);
        if (input.toUri().getScheme().equals(SsCacheConstants.SCHEME)) {
            assertThat(count(c, CacheScanCounters.RECORDS_IN_DRIVE)
                    + count(c, CacheScanCounters.RECORDS_ON_HOST)).isEqualTo(N);
        }
        return c;
    }

    private static long count(Counters c, Enum<?> e) {
        return c.findCounter(e).getValue();
    }

    /** Records the drive must do: all their blocks present (by `present`), within one run
     *  of present blocks and one split. */
    private static long inDrive(long payload, long splitBytes, java.util.function.LongPredicate
            present) {
        long n = 0;
        for (long k = 0; k < N; k++) {
            long b0 = k * REC / payload;
            long b1 = (k * REC + REC - 1) / payload;
            boolean ok = k * REC / splitBytes == (k * REC + REC - 1) / splitBytes;
            for (long b = b0; b <= b1 && ok; b++) {
                ok = present.test(b);
            }
            n += ok ? 1 : 0;
        }
        return n;
    }

    @Test
    void coldWarmPartialAndChangedFileEqualTheUncachedScan() throws Exception {
        Configuration conf = conf("cscan");
        Requests data = new Requests(N, 12, 7);
        Files.createDirectories(dir.resolve("backing/data"));
        java.nio.file.Path file = dir.resolve("backing/data/requests.bin");
        Files.write(file, bytes(data));
        Path input = new Path("sscache://cscan/data/requests.bin");

        // the plain scan: the same job over a smartssd:// copy of the bytes
        Path plain = new Path("smartssd://cscan/plain/requests.bin");
        Drives.write(conf, plain, bytes(data));
        Counters p = run(conf, plain, data);
        assertThat(count(p, DeviceCounters.RECORDS_SCANNED)).isEqualTo(N);

        SsCacheFileSystem fs = (SsCacheFileSystem) input.getFileSystem(conf);
        CachedFile cf = fs.cachedFile(input);
        long payload = cf.payload();
        long splitBytes = SPLIT / payload * payload;
        long blocks = ((long) N * REC + payload - 1) / payload;

        // cold: nothing cached, the host does every record, and its reads fill the cache.
        // One split: the cache's stream reads 1 MiB windows, so the first split's reads
        // would cache the rest of this small file for the splits after it.
        Configuration oneSplit = new Configuration(conf);
        oneSplit.setLong("mapreduce.input.fileinputformat.split.maxsize", 1L << 30);
        Counters cold = run(oneSplit, input, data);
        assertThat(count(cold, CacheScanCounters.CACHED_SPLITS)).isEqualTo(1);
        assertThat(count(cold, CacheScanCounters.RECORDS_IN_DRIVE)).isZero();
        assertThat(count(cold, CacheScanCounters.RECORDS_ON_HOST)).isEqualTo(N);

        // warm: every block cached; the host does only the records across split edges
        long warmDrive = inDrive(payload, splitBytes, b -> true);
        Counters warm = run(conf, input, data);
        assertThat(count(warm, CacheScanCounters.CACHED_SPLITS)).isEqualTo(
                ((long) N * REC + splitBytes - 1) / splitBytes);
        assertThat(count(warm, CacheScanCounters.RECORDS_IN_DRIVE)).isEqualTo(warmDrive);
        assertThat(count(warm, CacheScanCounters.RECORDS_ON_HOST)).isEqualTo(N - warmDrive);
        assertThat(N - warmDrive).isLessThanOrEqualTo(2);
        assertThat(count(warm, CacheScanCounters.BYTES_IN_DRIVE)).isEqualTo(warmDrive * REC);
        assertThat(count(warm, CacheScanCounters.BLOCKS_READ_IN_DRIVE)).isEqualTo(blocks);
        assertThat(count(warm, DeviceCounters.RECORDS_SCANNED)).isEqualTo(warmDrive);
        assertThat(count(warm, DeviceCounters.DEVICE_TIME_NS)).isPositive();

        // partial: every other block evicted; a record is the drive's only inside one
        // present block (one split again, for the same reason as cold)
        for (long b = 1; b < blocks; b += 2) {
            cf.cache().evict(cf.addressBase() + b, 1);
        }
        long partialDrive = inDrive(payload, Long.MAX_VALUE / 2, b -> b % 2 == 0);
        assertThat(partialDrive).isBetween(1L, N - 1L);
        Counters partial = run(oneSplit, input, data);
        assertThat(count(partial, CacheScanCounters.RECORDS_IN_DRIVE)).isEqualTo(partialDrive);
        assertThat(count(partial, CacheScanCounters.RECORDS_ON_HOST)).isEqualTo(N - partialDrive);
        assertThat(count(partial, CacheScanCounters.STALE_SCANS)).isZero();

        // changed behind the cache's back: the cached blocks are of the old version
        Requests changed = new Requests(N, 12, 8);
        Files.write(file, bytes(changed));
        Files.setLastModifiedTime(file, FileTime.fromMillis(
                Files.getLastModifiedTime(file).toMillis() + 10_000));
        Counters stale = run(oneSplit, input, changed);
        assertThat(count(stale, CacheScanCounters.STALE_SCANS)).isEqualTo(1);
        assertThat(count(stale, CacheScanCounters.RECORDS_IN_DRIVE)).isZero();
        // the host's reads cached the new version: the drive does it again
        Counters again = run(conf, input, changed);
        assertThat(count(again, CacheScanCounters.STALE_SCANS)).isZero();
        assertThat(count(again, CacheScanCounters.RECORDS_IN_DRIVE)).isEqualTo(warmDrive);
    }

    @Test
    void placementIsRefusedForCachedInputsByName() throws Exception {
        Configuration conf = conf("cscanp");
        Files.createDirectories(dir.resolve("backing/p"));
        Files.write(dir.resolve("backing/p/r.bin"), bytes(new Requests(N, 3, 1)));
        DeviceJob job = DeviceJob.getInstance(new Configuration(conf), "placed cached");
        job.setDeviceMapper(SPEC);
        job.setDeviceMapperFormat(AggregateFormat.class);
        job.setHostMapper(RequestStatsHostMapper.class);
        job.setPlacement(Placement.AUTO);
        job.addInputPath(new Path("sscache://cscanp/p/r.bin"));
        FileOutputFormat.setOutputPath(job, new Path(dir.resolve("out-p").toUri()));
        org.assertj.core.api.Assertions.assertThatThrownBy(job::submit)
                .hasMessageContaining(Placement.KEY).hasMessageContaining("sscache://");
    }
}
