package org.smartssd.loganalyzer.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.smartssd.loganalyzer.Answer;
import org.smartssd.loganalyzer.Mode;
import org.smartssd.loganalyzer.Query;
import org.smartssd.loganalyzer.TestTraces;

/** The host versions on file://, against the answers computed in the test. */
class HostJobTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {20, 32, 256})
    void bothHostVersionsAnswerLikeTheReference(int es) throws Exception {
        byte[] trace = TestTraces.bytes(6_000, 9, es);
        Path in = Files.write(dir.resolve("trace.bin"), trace);
        Configuration conf = LocalHadoop.conf(dir.resolve("scratch"));
        org.apache.hadoop.fs.Path input = new org.apache.hadoop.fs.Path(in.toUri());
        int run = 0;
        for (Mode m : new Mode[] {Mode.HOST_NORMAL, Mode.HOST_OPTIMIZED}) {
            HostJob.Result q1 = HostJob.run(conf, Query.Q1, m, input, es,
                    new org.apache.hadoop.fs.Path(dir.resolve("out" + run++).toUri()));
            assertThat(q1.answer().accesses()).isEqualTo(TestTraces.q1(trace, es));
            assertThat(q1.inputRecords()).isEqualTo(6_000);
            assertThat(q1.bytesRead()).isEqualTo(trace.length);
            HostJob.Result q2 = HostJob.run(conf, Query.Q2, m, input, es,
                    new org.apache.hadoop.fs.Path(dir.resolve("out" + run++).toUri()));
            assertThat(TestTraces.rows(q2.answer())).isEqualTo(TestTraces.q2(trace, es));
            if (m == Mode.HOST_NORMAL) {
                assertThat(q1.mapOutputRecords()).as("one map output per record").isEqualTo(6_000);
                assertThat(q2.mapOutputRecords()).isEqualTo(6_000);
            } else {
                assertThat(q1.mapOutputRecords()).as("one per region")
                        .isEqualTo(TestTraces.q1(trace, es).size());
                assertThat(q2.mapOutputRecords()).isLessThan(60);
            }
            assertThat(q2.answer()).isInstanceOf(Answer.class);
        }
    }
}
