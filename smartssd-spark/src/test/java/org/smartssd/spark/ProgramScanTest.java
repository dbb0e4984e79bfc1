package org.smartssd.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.smartssd.device.TaskletFailedException;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.scan.DeviceAccess;

/**
 * Reads whose rows a loaded eBPF program defines (option {@code tasklet}), under Spark
 * {@code local[2]} over the suite's emulated drive ({@link SparkDrive}), with the program
 * clang compiled during the C build (isp_filter: the records whose layout field 1, the
 * big-endian i64 at 8, exceeds arg 0, emitted whole):
 * the rows, and a query over them, equal the same filter done by Spark over a plain read of
 * the same file and by plain Java over its bytes. A program not loaded fails the read at
 * analysis, naming it; one that does not fit the layout fails the query with the verifier's
 * reason; a column the records cannot hold is refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProgramScanTest {
    static final int N = 12_000;
    static final int SIZE = 16;
    static final long OVER = 250;
    /** Field 1, which isp_filter compares, is value; the records emitted are key, seq, value. */
    static final String LAYOUT = "key:i32@0, value:i64@8, seq:i32@4";

    SparkSession spark;
    byte[] data;
    String kv;
    String small;

    static byte[] program(String name) throws Exception {
        Path p = Path.of(System.getProperty("smartssd.native.build", "."), "firmware-tasklets",
                "bpf", "progs", name + ".o");
        assumeTrue(Files.isRegularFile(p), "no " + p + ": clang -target bpf was not found when"
                + " the C build was configured");
        return Files.readAllBytes(p);
    }

    @BeforeAll
    void start() throws Exception {
        SparkDrive d = SparkDrive.get();
        spark = d.spark;
        ByteBuffer b = ByteBuffer.allocate(N * SIZE);
        Random rnd = new Random(5);
        for (int i = 0; i < N; i++) {
            b.putInt(rnd.nextInt(17)).putInt(i).putLong(rnd.nextInt(2001) - 1000);
        }
        data = b.array();
        kv = d.put("/program/kv", data);
        small = d.put("/program/small", java.util.Arrays.copyOf(data, 12 * 100));
        SmartSsdDevice drive = DeviceAccess.fileSystem(new org.apache.hadoop.fs.Path(kv),
                spark.sparkContext().hadoopConfiguration()).device();
        drive.loadProgram("over", program("isp_filter"), true);
    }

    private Dataset<Row> programRead(String path, String layout, String program) {
        return spark.read().format("smartssd").option("layout", layout)
                .option("mapreduce.input.fileinputformat.split.maxsize", "32768")
                .option("tasklet", program).option("taskletArgs", String.valueOf(OVER))
                .option("taskletOutput", "key INT, seq INT, value BIGINT")
                .option("taskletOutputOrder", "big").load(path);
    }

    @Test
    void theProgramsRowsEqualSparksOwnFilterAndPlainJava() {
        Dataset<Row> prog = programRead(kv, LAYOUT, "over");
        assertThat(prog.schema().toDDL()).isEqualTo("key INT NOT NULL,seq INT NOT NULL,"
                + "value BIGINT NOT NULL");
        assertThat(prog.rdd().getNumPartitions()).isGreaterThan(3);
        List<Row> rows = prog.orderBy("seq").collectAsList();

        List<Row> expect = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(data);
        for (int i = 0; i < N; i++) {
            long v = b.getLong(i * SIZE + 8);
            if (v > OVER) {
                expect.add(RowFactory.create(b.getInt(i * SIZE), b.getInt(i * SIZE + 4), v));
            }
        }
        assertThat(rows).isNotEmpty().containsExactlyElementsOf(expect);

        prog.createOrReplaceTempView("prog");
        spark.read().format("smartssd").option("layout", LAYOUT).option("pushDownPredicate",
                "false").option("pushDownAggregate", "false").load(kv)
                .createOrReplaceTempView("plain");
        List<Row> fromProgram = spark.sql("SELECT key, count(*), sum(value), max(seq) FROM prog "
                + "GROUP BY key ORDER BY key").collectAsList();
        List<Row> fromSpark = spark.sql("SELECT key, count(*), sum(value), max(seq) FROM plain "
                + "WHERE value > " + OVER + " GROUP BY key ORDER BY key").collectAsList();
        assertThat(fromProgram).hasSize(17).isEqualTo(fromSpark);
    }

    @Test
    void aProgramNotLoadedFailsTheReadNamingIt() {
        assertThatThrownBy(() -> programRead(kv, LAYOUT, "absent").schema())
                .hasRootCauseInstanceOf(TaskletFailedException.class)
                .rootCause().hasMessageContaining("'absent'");
    }

    @Test
    void aProgramThatDoesNotFitTheLayoutFailsTheQueryWithTheVerifiersReason() {
        Dataset<Row> prog = programRead(small, "key:i32@0, value:i64@4",
                "over");
        // isp_filter emits the record's 16 bytes: records of 12 are too short (Spark's task
        // failure carries the executor's exception as text)
        assertThatThrownBy(prog::collectAsList)
                .hasMessageContaining("PROGRAM_REFUSED")
                .hasMessageContaining("(HELPER_ARG)");
    }

    @Test
    void outputColumnsTheRecordsCannotHoldAreRefused() {
        assertThatThrownBy(() -> spark.read().format("smartssd").option("layout", LAYOUT)
                .option("tasklet", "over").option("taskletOutput", "name STRING")
                .load(kv).schema())
                .hasMessageContaining("column name is STRING");
        assertThatThrownBy(() -> spark.read().format("smartssd").option("layout", LAYOUT)
                .option("tasklet", "over").load(kv).schema())
                .hasMessageContaining("needs option 'taskletOutput'");
    }

}
