package org.smartssd.device.tasklet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.smartssd.device.tasklet.HostTaskletTest.FIXED;
import static org.smartssd.device.tasklet.HostTaskletTest.TEXT;
import static org.smartssd.device.tasklet.HostTaskletTest.cut;
import static org.smartssd.device.tasklet.HostTaskletTest.fixedRecords;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.smartssd.device.RecordLayout;

/**
 * The records a host tasklet is given ({@link SplitRecords}): records and lines cut at every
 * split point are each seen once, a text range reads no further than its last line, and a
 * line longer than the layout allows fails naming it.
 */
class SplitRecordsTest {
    @Test
    void everyRecordAndLineIsInExactlyOneSplit() throws IOException {
        byte[] fixed = fixedRecords(100, 1);
        String text = "alpha,1\nbeta,-2\n\n,7\ngamma,x\ndelta,2147483648\nomega,5";
        byte[] t = text.getBytes(StandardCharsets.US_ASCII);
        List<String> lines = Arrays.asList(text.split("\n", -1));
        for (int step : new int[] {1, 5, 12, 13, 64, 1000}) {
            List<byte[]> recs = new ArrayList<>();
            for (long s = 0; s < fixed.length; s += step) {
                recs.addAll(cut(FIXED, fixed, s, step));
            }
            assertThat(recs).hasSize(100);
            assertThat(recs.get(37)).containsExactly(Arrays.copyOfRange(fixed, 37 * 12, 38 * 12));
            List<String> got = new ArrayList<>();
            for (long s = 0; s < t.length; s += step) {
                cut(TEXT, t, s, step).forEach(b -> got.add(new String(b,
                        StandardCharsets.US_ASCII)));
            }
            assertThat(got).as("split every %d bytes", step).isEqualTo(lines);
        }
    }

    @Test
    void aTextRangeReadsNoFurtherThanItsLastLine() throws IOException {
        // short lines and some of 1500 bytes, in a layout that allows 4096 (the connector's
        // default)
        RecordLayout longLines = RecordLayout.text('\n', ',', 4096, TEXT.fields());
        StringBuilder sb = new StringBuilder();
        Random r = new Random(3);
        List<String> lines = new ArrayList<>();
        while (sb.length() < 200_000) {
            int kind = r.nextInt(100);
            String line = kind == 0 ? "L".repeat(1500) : kind < 25 ? "w".repeat(64)
                    : "n," + r.nextInt(1000);
            lines.add(line);
            sb.append(line).append('\n');
        }
        byte[] t = sb.toString().getBytes(StandardCharsets.US_ASCII);
        for (int step : new int[] {100, 4096, 65536}) {
            List<String> got = new ArrayList<>();
            for (long s = 0; s < t.length; s += step) {
                long read = SplitRecords.cut(longLines, t.length, s, step,
                        SplitRecords.Input.of(t),
                        (b, off, n) -> got.add(new String(b, off, n,
                                StandardCharsets.US_ASCII)));
                // the byte before the range, the range, and the rest of its last line in
                // reads that double from TAIL_READ: less than twice that rest plus TAIL_READ,
                // however long a line the layout allows
                long end = Math.min(t.length, s + step);
                long lineEnd = end - 1;
                while (lineEnd < t.length && t[(int) lineEnd] != '\n') {
                    lineEnd++;
                }
                long rest = Math.min(t.length, lineEnd + 1) - end;
                assertThat(read).as("bytes read for [%d, +%d)", s, step)
                        .isLessThanOrEqualTo(1 + step + 2 * rest + SplitRecords.TAIL_READ);
            }
            assertThat(got).as("split every %d bytes", step).isEqualTo(lines);
        }
    }

    @Test
    void aLineLongerThanTheLayoutsFailsNamingIt() {
        byte[] t = ("a\n" + "x".repeat(65) + "\nb").getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> cut(TEXT, t, 0, t.length))
                .hasMessageContaining("line at byte 2 is longer than 64 bytes");
    }
}
