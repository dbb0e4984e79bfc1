package org.smartssd.scan.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.tasklet.Predicate;

/**
 * A WHERE tree's statistics predicate never prunes a row group holding a row the tree is
 * TRUE for: random trees (comparisons, IS NULL, string equality and prefix, booleans, AND,
 * OR, NOT nested) over a file of clustered values with NULLs, each row group it prunes read
 * on the host by {@link ParquetHostScan} (the drive's semantics, three-valued) and found to
 * hold no match. And it prunes: most trees that can are seen to.
 */
class TreeStatisticsTest {
    private static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message t {"
            + " required int64 id; optional int32 k; optional binary name (STRING);"
            + " optional int32 day (DATE); optional boolean flag; optional double x; }");
    private static final List<String> COLUMNS = List.of("id", "k", "name", "day", "flag", "x");

    @TempDir
    static Path dir;
    private static ParquetFooter footer;
    private static List<DriveColumn> columns;

    @BeforeAll
    static void write() throws Exception {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(
                dir.resolve("t.parquet").toUri());
        SimpleGroupFactory f = new SimpleGroupFactory(SCHEMA);
        Random r = new Random(7);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(p).withType(SCHEMA)
                .withCompressionCodec(CompressionCodecName.SNAPPY).withRowGroupSize(16 * 1024L)
                .withPageSize(4 * 1024).withConf(new Configuration(false)).build()) {
            for (long id = 0; id < 20_000; id++) {
                Group g = f.newGroup().append("id", id);
                if (r.nextInt(9) != 0) {
                    g.append("k", (int) (id / 500) - 20 + r.nextInt(3));
                }
                if (r.nextInt(7) != 0) {
                    g.append("name", "n" + (id / 2_000) + "-" + r.nextInt(5));
                }
                if (id % 11 != 0) {
                    g.append("day", 18_000 + (int) (id / 1_000));
                }
                if (id % 13 != 0) {
                    g.append("flag", id >= 10_000);
                }
                g.append("x", id / 100.0);
                w.write(g);
            }
        }
        footer = ParquetFooter.read(p, new Configuration());
        columns = new ArrayList<>();
        for (String c : COLUMNS) {
            columns.add(footer.column(c).supported().orElseThrow());
        }
        assertThat(footer.rowGroups().size()).isGreaterThan(10);
    }

    @Test
    void aPrunedRowGroupHoldsNoMatch() throws Exception {
        Random r = new Random(1998);
        int pruning = 0;
        for (int t = 0; t < 300; t++) {
            Predicate where = tree(r, 3);
            byte[] tree = where.encode();
            List<BlockMetaData> kept = footer.rowGroups(TreeStatistics.of(tree, columns));
            ParquetScanPlan plan = ParquetScanPlan.builder(columns).where(tree).rows(0).build();
            try (ParquetHostScan host = ParquetHostScan.open(new Configuration(), plan,
                    footer)) {
                for (int g = 0; g < footer.rowGroups().size(); g++) {
                    BlockMetaData rg = footer.rowGroups().get(g);
                    if (kept.stream().anyMatch(k -> k == rg)) {
                        continue;
                    }
                    assertThat(host.rowGroup(g, 0).rows()).as("tree %d, %s: row group %d "
                            + "pruned", t, where, g).isEmpty();
                }
            }
            if (kept.size() < footer.rowGroups().size()) {
                pruning++;
            }
        }
        assertThat(pruning).as("trees that pruned a row group, of 300").isGreaterThan(60);
    }

    @Test
    void whatDoesNotTranslateKeepsEveryRowGroup() {
        byte[] prefix = Predicate.prefix(2, "n3").encode();
        assertThat(TreeStatistics.of(prefix, columns)).isNull();
        byte[] x = Predicate.gt(5, 0).encode();
        assertThat(TreeStatistics.of(x, columns)).isNull();
        // under a NOT an AND that translates in part would prune what it must keep
        byte[] negated = Predicate.not(Predicate.and(Predicate.lt(0, 19_000),
                Predicate.prefix(2, "n3"))).encode();
        assertThat(TreeStatistics.of(negated, columns)).isNull();
        assertThat(footer.rowGroups(TreeStatistics.of(Predicate.not(Predicate.lt(0, 19_000))
                .encode(), columns))).hasSizeLessThan(footer.rowGroups().size() / 4);
        assertThat(TreeStatistics.of(new byte[0], columns)).isNull();
    }

    /** A random tree over the file's columns, constants about the values there are. */
    private static Predicate tree(Random r, int depth) {
        int pick = r.nextInt(depth == 0 ? 6 : 9);
        switch (pick) {
            case 0 -> {
                return new Predicate.Cmp(op(r), 0, r.nextInt(21_000) - 500);
            }
            case 1 -> {
                return new Predicate.Cmp(op(r), 1, r.nextInt(46) - 23);
            }
            case 2 -> {
                return new Predicate.Cmp(op(r), 3, 18_000 + r.nextInt(22) - 1);
            }
            case 3 -> {
                String v = "n" + r.nextInt(11) + (r.nextBoolean() ? "-" + r.nextInt(5) : "");
                return new Predicate.Bytes(r.nextBoolean() ? Predicate.Match.EQUALS
                        : Predicate.Match.PREFIX, 2, v.getBytes(StandardCharsets.UTF_8));
            }
            case 4 -> {
                return new Predicate.IsNull(1 + r.nextInt(4));
            }
            case 5 -> {
                return new Predicate.Cmp(r.nextBoolean() ? Predicate.Compare.EQ
                        : Predicate.Compare.NE, 4, r.nextInt(2));
            }
            case 6 -> {
                return Predicate.not(tree(r, depth - 1));
            }
            default -> {
                List<Predicate> c = new ArrayList<>();
                for (int i = 0, n = 2 + r.nextInt(2); i < n; i++) {
                    c.add(tree(r, depth - 1));
                }
                return pick == 7 ? new Predicate.And(c) : new Predicate.Or(c);
            }
        }
    }

    private static Predicate.Compare op(Random r) {
        return Predicate.Compare.values()[r.nextInt(Predicate.Compare.values().length)];
    }
}
