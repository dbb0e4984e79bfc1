package org.smartssd.scan.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * The Java planner against pyarrow's: for every scan of firmware-tasklets' pq_vectors,
 * gen_pq_scan.py read the footer with pyarrow and wrote the plan; ParquetFooter and
 * ParquetScanPlan, reading the same file with parquet-mr, must write the same bytes.
 */
class ParquetScanPlanTest {
    static final java.nio.file.Path VECTORS = java.nio.file.Path.of(
            System.getProperty("user.dir")).resolve(
            "../firmware-tasklets/tasklets/tests/pq_vectors").normalize();

    /** gen_pq_scan.py's plan columns of each query. */
    private static final Map<String, List<String>> COLUMNS = Map.of(
            "eq", List.of("k", "id", "name", "price", "day"),
            "prefix", List.of("name", "score", "k", "flag", "id", "ts"),
            "in", List.of("k", "ts", "id", "tsu", "amount", "day"),
            "limit", List.of("name", "id"),
            "set", List.of("k", "id"),
            "count", List.of("score"),
            "agg", List.of("g", "k", "price", "id"),
            "minmax", List.of("g", "score"),
            "top", List.of("g", "price", "id", "day", "k"),
            "bottom", List.of("score", "id", "flag"));

    @Test
    void everyVectorPlanIsRebuiltByteForByte() throws Exception {
        int plans = 0;
        for (String line : Files.readAllLines(VECTORS.resolve("scans.txt"))) {
            String[] f = line.split(" ");
            if (f[0].startsWith("v2_")) {
                continue;
            }
            byte[] want = Files.readAllBytes(VECTORS.resolve(f[0] + ".plan"));
            ParquetFooter footer = ParquetFooter.read(
                    new Path(VECTORS.resolve(f[1]).toUri()), new Configuration());
            List<DriveColumn> cols = COLUMNS.get(f[0].substring(f[0].indexOf('-') + 1))
                    .stream().map(n -> footer.column(n).supported().orElseThrow()).toList();
            for (DriveColumn c : cols) {
                assertThat(footer.chunkRefusal(c, footer.rowGroups())).as(f[0]).isEmpty();
            }
            ParquetScanPlan plan = queryOf(want, cols);
            List<byte[]> runs = plan.encode(footer, footer.rowGroups());
            assertThat(runs).as(f[0]).hasSize(1);
            assertThat(runs.get(0)).as(f[0]).isEqualTo(want);
            plans++;
        }
        assertThat(plans).isEqualTo(30);
    }

    /** The query half of a vector's plan (header, projection, tree) as a builder sets it. */
    private static ParquetScanPlan queryOf(byte[] plan, List<DriveColumn> cols) {
        ByteBuffer b = ByteBuffer.wrap(plan).order(ByteOrder.LITTLE_ENDIAN);
        int ncols = b.get(0);
        int mode = b.get(1);
        int nproj = b.get(2);
        int nkeys = b.get(3);
        int nrg = b.getShort(4);
        int treeLen = b.getShort(6) & 0xffff;
        long limit = b.getInt(8) & 0xffffffffL;
        int[] keys = Arrays.copyOf(new int[] {b.get(12), b.get(13)}, nkeys);
        int value = b.get(14);
        int ops = b.get(15);
        int flags = b.get(16);
        int projAt = 24 + ncols * 8 + nrg * (8 + ncols * 32);
        int[] proj = new int[nproj];
        for (int i = 0; i < nproj; i++) {
            proj[i] = plan[projAt + i];
        }
        byte[] tree = Arrays.copyOfRange(plan, projAt + nproj, projAt + nproj + treeLen);
        ParquetScanPlan.Builder p = ParquetScanPlan.builder(cols).where(tree).flags(flags);
        switch (ParquetScanPlan.Mode.values()[mode]) {
            case ROWS -> p.rows(proj).limit(limit);
            case COUNT -> p.count().limit(limit);
            case AGGREGATE -> p.aggregate(ops, value, keys);
            case TOPN -> p.topN((int) limit, value, (flags & ParquetScanPlan.FLAG_SMALLEST) != 0,
                    keys, proj);
        }
        return p.build();
    }
}
