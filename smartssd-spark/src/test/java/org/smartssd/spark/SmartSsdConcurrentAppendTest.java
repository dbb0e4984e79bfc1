package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Appends to one table at once: every append that reports success is in the table, whole.
 * The repro of issue 35: a table of 1,000 rows, four threads of one application appending
 * 50,000, 100,000, 150,000 and 200,000 rows; {@code -Dss.appendRounds=N} runs N rounds
 * (default 2). Then a writer outside the application, seen only through the lock object it
 * holds on the drive (as another Spark application's {@link TableLock} holds it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("full")
class SmartSsdConcurrentAppendTest {
    static final int ROUNDS = Integer.getInteger("ss.appendRounds", 2);
    static final int WRITERS = 4;
    static final long WAIT_MINUTES = 10;

    SparkSession spark;
    SparkDrive drive;
    ExecutorService pool;

    @BeforeAll
    void setUp() throws Exception {
        drive = SparkDrive.get();
        spark = drive.spark;
        pool = Executors.newFixedThreadPool(WRITERS);
    }

    @AfterAll
    void tearDown() {
        pool.shutdownNow();
    }

    private static String table(String name) {
        return "smartssd://" + SparkDrive.DRIVE + "/concurrent/" + name;
    }

    private Dataset<Row> rows(long n, int b) {
        return spark.range(0, n).selectExpr("cast(id as int) a", "cast(" + b + " as int) b");
    }

    private static void await(Future<?> f, String what) throws Exception {
        try {
            f.get(WAIT_MINUTES, TimeUnit.MINUTES);
        } catch (TimeoutException e) {
            throw new AssertionError(what + " did not finish within " + WAIT_MINUTES + " min", e);
        }
    }

    /** Rows per value of b, and the sum of a over them, as the table holds them. */
    private List<String> countsAndSums(String path) {
        List<String> out = new ArrayList<>();
        spark.read().format("smartssd").load(path).groupBy("b")
                .agg(org.apache.spark.sql.functions.count("*"),
                        org.apache.spark.sql.functions.sum("a"))
                .orderBy("b").collectAsList().forEach(r -> out.add(r.toString()));
        return out;
    }

    private static String expected(int b, long n) {
        return "[" + b + "," + n + "," + n * (n - 1) / 2 + "]";
    }

    @Test
    void concurrentAppendsLoseNoRow() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            String path = table("t" + round);
            rows(1000, -1).write().format("smartssd").save(path);
            List<Future<?>> appends = new ArrayList<>();
            for (int i = 0; i < WRITERS; i++) {
                Dataset<Row> mine = rows(50_000L * (i + 1), i);
                appends.add(pool.submit(() -> mine.write().format("smartssd").mode("append")
                        .save(path)));
            }
            for (int i = 0; i < WRITERS; i++) {
                await(appends.get(i), "round " + round + ", append " + i);
            }
            List<String> want = new ArrayList<>(List.of(expected(-1, 1000)));
            for (int i = 0; i < WRITERS; i++) {
                want.add(expected(i, 50_000L * (i + 1)));
            }
            assertThat(countsAndSums(path)).as("round %d", round).isEqualTo(want);
            assertThat(spark.read().format("smartssd").load(path).count()).isEqualTo(501_000);
            assertThat(drive.fs().exists(TableLock.of(new Path(path)))).isFalse();
        }
        System.out.println("concurrent appends: " + ROUNDS + " rounds of " + WRITERS
                + " appends onto 1,000 rows, 501,000 rows each time, 0 lost");
    }

    @Test
    void aWriterOfAnotherApplicationHoldingTheLockMakesAnAppendWait() throws Exception {
        String path = table("held");
        rows(10, -1).write().format("smartssd").save(path);
        FileSystem fs = drive.fs();
        Path lock = TableLock.of(new Path(path));
        try (OutputStream out = fs.create(lock, false)) {
            out.write("owner=4242@other-host, thread main".getBytes(StandardCharsets.UTF_8));
        }
        assertThatThrownBy(() -> rows(5, 0).write().format("smartssd").mode("append")
                .option("lockWaitMillis", "100").save(path))
                .hasStackTraceContaining("is being written by another writer "
                        + "(owner=4242@other-host, thread main); waited 100 ms")
                .hasStackTraceContaining("If no writer is running, delete " + lock);
        assertThat(spark.read().format("smartssd").load(path).count()).isEqualTo(10);

        // an append waiting for the lock goes through once the other writer is done
        Future<?> append = pool.submit(() -> rows(5, 0).write().format("smartssd")
                .mode("append").save(path));
        fs.delete(lock, false);
        await(append, "the append waiting for the lock");
        assertThat(countsAndSums(path)).containsExactly(expected(-1, 10), expected(0, 5));
        assertThat(fs.exists(lock)).isFalse();
    }
}
