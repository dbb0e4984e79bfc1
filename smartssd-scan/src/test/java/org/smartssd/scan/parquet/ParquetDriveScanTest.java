package org.smartssd.scan.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.apache.parquet.filter2.predicate.FilterApi.gtEq;
import static org.apache.parquet.filter2.predicate.FilterApi.longColumn;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.smartssd.device.ModelCounters;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.tasklet.Predicate;
import org.smartssd.scan.DeviceAccess;

/**
 * Plans made from the footer, run in an emulated drive over files pyarrow and DuckDB wrote
 * (firmware-tasklets' pq_vectors, copied onto the drive through smartssd://); each answer
 * equals parquet-mr reading the same bytes through the FileSystem on the host.
 */
class ParquetDriveScanTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final int BUDGET = 2 << 20;

    @TempDir
    java.nio.file.Path dir;
    private Configuration conf;

    @BeforeEach
    void drive() {
        conf = new Configuration();
        conf.setBoolean("smartssd.device.embedded.allowed", true);
        conf.set("smartssd.device.embedded.dir", dir.resolve("drives").toString());
        conf.set("fs.smartssd.impl", "org.smartssd.fs.SmartSsdFileSystem");
    }

    private Path copy(String name) throws Exception {
        Path p = new Path("smartssd://pqscan/t/" + name);
        try (FSDataOutputStream out = p.getFileSystem(conf).create(p)) {
            out.write(Files.readAllBytes(ParquetScanPlanTest.VECTORS.resolve(name)));
        }
        return p;
    }

    /** parquet-mr's rows of the file: id and name where k = 3 and id >= minId. */
    private List<String> hostRows(Path p, long minId) throws Exception {
        List<String> out = new ArrayList<>();
        try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(), p)
                .withConf(conf).build()) {
            for (Group g = r.read(); g != null; g = r.read()) {
                if (g.getFieldRepetitionCount("k") == 1 && g.getInteger("k", 0) == 3
                        && g.getLong("id", 0) >= minId) {
                    out.add(g.getLong("id", 0) + " " + (g.getFieldRepetitionCount("name") == 0
                            ? "null" : g.getString("name", 0)));
                }
            }
        }
        return out;
    }

    private static List<String> driveRows(ParquetDriveScan.Result r) {
        return r.rows().stream().map(row -> row[0] + " " + (row[1] == null ? "null"
                : new String((byte[]) row[1], StandardCharsets.UTF_8))).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"dict_snappy.parquet", "plain_none.parquet", "duckdb_snappy.parquet"})
    void rowsAndCountsEqualParquetMrs(String name) throws Exception {
        Path p = copy(name);
        ParquetFooter footer = ParquetFooter.read(p, conf);
        DeviceAccess file = DeviceAccess.of(p, conf);
        List<DriveColumn> cols = List.of("k", "id", "name").stream()
                .map(c -> footer.column(c).supported().orElseThrow()).toList();

        ParquetScanPlan eq = ParquetScanPlan.builder(cols).rows(1, 2)
                .where(Predicate.eq(0, 3).encode()).build();
        ParquetDriveScan.Result all = ParquetDriveScan.run(file, eq,
                footer, footer.rowGroups(), 0, BUDGET, TIMEOUT);
        List<String> want = hostRows(p, 0);
        assertThat(want).hasSizeGreaterThan(10);
        assertThat(driveRows(all)).isEqualTo(want);
        assertThat(all.rowsDecoded()).isEqualTo(600);

        // id >= 450: the statistics keep the row groups that may hold it, the tree does the rest
        List<BlockMetaData> kept = footer.rowGroups(gtEq(longColumn("id"), 450L));
        boolean prunes = footer.rowGroups().size() > 1; // DuckDB wrote one row group
        assertThat(kept.size() < footer.rowGroups().size()).isEqualTo(prunes);
        ParquetScanPlan late = ParquetScanPlan.builder(cols).rows(1, 2)
                .where(Predicate.and(Predicate.eq(0, 3), Predicate.ge(1, 450)).encode()).build();
        ParquetDriveScan.Result pruned = ParquetDriveScan.run(file, late,
                footer, kept, 0, BUDGET, TIMEOUT);
        assertThat(driveRows(pruned)).isEqualTo(hostRows(p, 450));
        assertThat(pruned.rowsDecoded())
                .isEqualTo(kept.stream().mapToLong(BlockMetaData::getRowCount).sum())
                .isLessThanOrEqualTo(prunes ? 400 : 600);

        ParquetScanPlan count = ParquetScanPlan.builder(cols).count()
                .where(Predicate.eq(0, 3).encode()).build();
        assertThat(ParquetDriveScan.run(file, count, footer, footer.rowGroups(),
                0, BUDGET, TIMEOUT).matches()).isEqualTo(want.size());
        ParquetDriveScan.Result limited = ParquetDriveScan.run(file, eq,
                footer, footer.rowGroups(), 5, BUDGET, TIMEOUT);
        assertThat(driveRows(limited)).isEqualTo(want.subList(0, 5));
    }

    @ParameterizedTest
    @ValueSource(strings = {"v2_snappy.parquet"})
    void pagesTheFooterHidesAreRefusedAsUnsupported(String name) throws Exception {
        Path p = copy(name);
        ParquetFooter footer = ParquetFooter.read(p, conf);
        List<DriveColumn> cols = List.of(footer.column("score").supported().orElseThrow());
        ParquetScanPlan count = ParquetScanPlan.builder(cols).count()
                .where(Predicate.isNull(0).encode()).build();
        assertThatThrownBy(() -> ParquetDriveScan.run(DeviceAccess.of(p, conf), count,
                footer, footer.rowGroups(), 0, BUDGET, TIMEOUT))
                .isInstanceOf(ParquetDriveScan.Unsupported.class)
                .hasMessageContaining("INPUT_UNSUPPORTED");
    }

    /**
     * A run over one row group of a file of many reads that row group's chunks of the plan's
     * columns, not the file from its start: the drive's ISP is handed no page outside them.
     */
    @Test
    void aRunReadsOnlyItsChunks() throws Exception {
        Path p = manyRowGroups("many-groups.parquet", 20_000, 256L << 10);
        ParquetFooter footer = ParquetFooter.read(p, conf);
        List<BlockMetaData> groups = footer.rowGroups();
        assertThat(groups).hasSizeGreaterThan(8);
        BlockMetaData last = groups.get(groups.size() - 1);
        ColumnChunkMetaData id = last.getColumns().get(0);
        List<DriveColumn> cols = List.of(footer.column("id").supported().orElseThrow());
        ParquetScanPlan plan = ParquetScanPlan.builder(cols).rows(0).build();
        assertThat(plan.chunkRanges(List.of(last))).singleElement()
                .satisfies(r -> assertThat(r).containsExactly(id.getStartingPos(),
                        id.getTotalSize()));

        DeviceAccess file = DeviceAccess.of(p, conf);
        SmartSsdDevice dev = file.device();
        ModelCounters before = dev.modelCounters().orElseThrow();
        ParquetDriveScan.Result r = ParquetDriveScan.run(file, plan, footer, List.of(last), 0,
                BUDGET, TIMEOUT);
        ModelCounters after = dev.modelCounters().orElseThrow();

        long first = 20_000 - last.getRowCount();
        assertThat(r.rows()).hasSize((int) last.getRowCount());
        assertThat(r.rows().get(0)[0]).isEqualTo(first);
        long pageSize = dev.info().pageSize();
        long chunkPages = (id.getStartingPos() + id.getTotalSize() - 1) / pageSize
                - id.getStartingPos() / pageSize + 1;
        long filePages = (id.getStartingPos() + id.getTotalSize()) / pageSize;
        assertThat(filePages).isGreaterThan(10 * chunkPages);
        assertThat(after.ispPages() - before.ispPages()).isBetween(1L, chunkPages);
    }

    /**
     * The second readCached of a file's footer asks the drive for its status only; once the
     * file is written again, it reads the new footer.
     */
    @Test
    void aCachedFooterIsReadOnceAndAgainWhenTheFileChanges() throws Exception {
        Path p = manyRowGroups("cached.parquet", 20_000, 64L << 10);
        SmartSsdDevice dev = DeviceAccess.of(p, conf).device();
        ParquetFooter first = ParquetFooter.readCached(p, conf);
        assertThat(first.rowGroups()).hasSizeGreaterThan(30);
        ModelCounters before = dev.modelCounters().orElseThrow();
        ParquetFooter again = ParquetFooter.readCached(p, conf);
        ModelCounters after = dev.modelCounters().orElseThrow();
        assertThat(after.linkBytesIn() - before.linkBytesIn()).isLessThan(4096);
        assertThat(again).isSameAs(first);

        manyRowGroups("cached.parquet", 1_000, 64L << 10);
        ParquetFooter changed = ParquetFooter.readCached(p, conf);
        assertThat(changed.rowGroups().stream().mapToLong(BlockMetaData::getRowCount).sum())
                .isEqualTo(1_000);
    }

    /** A file of {@code n} rows (id, a 200-byte string) in row groups of about {@code rg} B. */
    private Path manyRowGroups(String name, long n, long rg) throws Exception {
        Path p = new Path("smartssd://pqscan/t/" + name);
        MessageType schema = MessageTypeParser.parseMessageType(
                "message t { required int64 id; required binary pad (UTF8); }");
        SimpleGroupFactory rows = new SimpleGroupFactory(schema);
        String pad = "x".repeat(200);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(p).withConf(conf)
                .withWriteMode(org.apache.parquet.hadoop.ParquetFileWriter.Mode.OVERWRITE)
                .withType(schema).withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
                .withDictionaryEncoding(false).withRowGroupSize(rg).build()) {
            for (long i = 0; i < n; i++) {
                w.write(rows.newGroup().append("id", i).append("pad", pad + i));
            }
        }
        return p;
    }
}
