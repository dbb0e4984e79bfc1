package org.smartssd.loganalyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Spark engine (Spark SQL {@code local[2]} through the smartssd connector, without and
 * with pushdown) against the MapReduce device version over the same file on the shared
 * embedded drive, and against the answers the test computes from the bytes itself.
 */
@Tag("full")
class SparkEngineTest {
    @ParameterizedTest
    @ValueSource(ints = {32, 256})
    void sparkAnswersAsTheMapReduceEngineAndTheBytes(int es) throws Exception {
        int n = 5_000;
        byte[] padded = TestTraces.bytes(n, 9 + es, es);
        LogAnalyzer la = SharedDrive.get();
        LogAnalyzer.DriveFile f = la.put("spark.e" + es, padded, es);
        for (Query q : Query.values()) {
            List<RunResult> runs = new ArrayList<>();
            runs.add(la.run(q, Mode.DEVICE, f));
            for (Mode m : Engine.SPARK.modes()) {
                RunResult r = la.run(q, m, f);
                assertThat(r.records()).as("%s %s records", q, m).isEqualTo(n);
                assertThat(r.modelled()).isTrue();
                assertThat(r.spark()).isNotNull();
                runs.add(r);
            }
            for (RunResult r : runs) {
                if (q == Query.Q1) {
                    assertThat(r.answer().accesses()).as("%s %s at %d B", q, r.mode(), es)
                            .isEqualTo(TestTraces.q1(padded, es));
                } else {
                    assertThat(TestTraces.rows(r.answer())).as("%s %s at %d B", q, r.mode(), es)
                            .isEqualTo(TestTraces.q2(padded, es));
                }
            }
            assertThat(CompareTable.identical(runs)).isTrue();

            RunResult off = runs.get(1);
            RunResult on = runs.get(2);
            assertThat(off.spark().scan()).contains("tasklet: none").doesNotContain("PushedAggregates");
            assertThat(on.spark().scan()).contains("PushedAggregates: [COUNT(*)]")
                    .contains(q == Query.Q1 ? "PushedGroupByExpressions: [region]"
                            : "PushedGroupByExpressions: [region, type]");
            // without pushdown every record crossed the link; with it only the groups did
            assertThat(off.spark().linkBytes()).isEqualTo(padded.length);
            assertThat(off.spark().scanRows()).isEqualTo(n);
            assertThat(on.spark().driveScanned()).isEqualTo(padded.length);
            assertThat(on.spark().linkBytes()).isLessThan(padded.length / 4);
            assertThat(on.linkBytes()).isLessThan(off.linkBytes());
            assertThat(on.ispNs()).isPositive();
            assertThat(off.ispNs()).isZero();
        }
        la.remove(f);
    }
}
