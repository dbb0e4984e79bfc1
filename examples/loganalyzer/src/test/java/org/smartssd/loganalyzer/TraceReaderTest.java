package org.smartssd.loganalyzer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceReaderTest {
    @TempDir
    Path dir;

    /** Two records written byte by byte from the format's documentation. */
    private static final byte[] TWO = {
        0x35, 0x7d, (byte) 0xcf, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x01, 0x02,
        0x00, 0x00, 0x10, 0x00, 0x00, (byte) 0x42, 0x01, (byte) 0x61,
        (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x12, 0x34, 0x56, 0x78,
        (byte) 0x9a, (byte) 0xbc, (byte) 0xde, (byte) 0xf0, (byte) 0xff, (byte) 0xff,
        (byte) 0xff, (byte) 0xff, 0x01, (byte) 0x8d, 0x0c, (byte) 0xe3,
    };

    @Test
    void decodesTheDocumentedFields() throws IOException {
        Path f = Files.write(dir.resolve("wc_day1_1"), TWO);
        List<WorldCupRecord> rs = readAll(f, 20);
        assertThat(rs).hasSize(2);
        WorldCupRecord a = rs.get(0);
        assertThat(a.timestamp()).isEqualTo(0x357dcf00L);
        assertThat(a.clientId()).isEqualTo(7);
        assertThat(a.objectId()).isEqualTo(0x102);
        assertThat(a.size()).isEqualTo(0x1000);
        assertThat(a.method()).isEqualTo(WorldCupRecord.GET);
        assertThat(a.httpVersion()).isEqualTo(1);       // 0x42 >> 6
        assertThat(a.statusIndex()).isEqualTo(2);       // 0x42 & 0x3f: SC_200
        assertThat(a.type()).isEqualTo(FileType.IMAGE);
        assertThat(a.region()).isEqualTo(3);            // 0x61 >> 5: Paris
        assertThat(a.server() & 0x1f).isEqualTo(1);
        WorldCupRecord b = rs.get(1);
        assertThat(b.timestamp()).isEqualTo(0xffffffffL);
        assertThat(b.clientId()).isEqualTo(0x12345678L);
        assertThat(b.objectId()).isEqualTo(0x9abcdef0L);
        assertThat(b.size()).isEqualTo(WorldCupRecord.NO_SIZE);
        assertThat(b.httpVersion()).isEqualTo(2);       // 0x8d
        assertThat(b.statusIndex()).isEqualTo(13);      // SC_304
        assertThat(b.region()).isEqualTo(7);            // 0xe3
        assertThat(Region.name(a.region())).isEqualTo("Paris");
        assertThat(a.toBytes()).isEqualTo(Arrays.copyOf(TWO, 20));
    }

    @Test
    void gzipAndRawGiveTheSameRecords() throws IOException {
        byte[] trace = TestTraces.bytes(3_000, 11, 20);
        Path raw = Files.write(dir.resolve("wc_day5_1"), trace);
        Path gz = dir.resolve("wc_day5_1.gz");
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(gz))) {
            o.write(trace);
        }
        Path gzNoSuffix = Files.copy(gz, dir.resolve("compressed-without-suffix"));
        assertThat(TraceReader.isGzip(gz)).isTrue();
        assertThat(TraceReader.isGzip(raw)).isFalse();
        List<WorldCupRecord> a = readAll(raw, 20);
        assertThat(a).hasSize(3_000);
        assertThat(readAll(gz, 20)).isEqualTo(a);
        assertThat(readAll(gzNoSuffix, 20)).isEqualTo(a);
        for (int i = 0; i < a.size(); i++) {
            assertThat(a.get(i).toBytes())
                    .isEqualTo(Arrays.copyOfRange(trace, i * 20, i * 20 + 20));
        }
    }

    @Test
    void paddedEntriesGiveTheSameRecords() throws IOException {
        Path raw = Files.write(dir.resolve("raw"), TestTraces.bytes(500, 2, 20));
        Path padded = Files.write(dir.resolve("padded"), TestTraces.bytes(500, 2, 128));
        assertThat(readAll(padded, 128)).isEqualTo(readAll(raw, 20));
    }

    @Test
    void aTruncatedFileIsAnErrorNamingIt() throws IOException {
        Path f = Files.write(dir.resolve("cut"), Arrays.copyOf(TWO, 33));
        assertThatThrownBy(() -> readAll(f, 20)).isInstanceOf(IOException.class)
                .hasMessageContaining(f.toString()).hasMessageContaining("13 stray bytes")
                .hasMessageContaining("after 1 whole 20-byte entries");
        Path gz = dir.resolve("cut.gz");
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(gz))) {
            o.write(TestTraces.bytes(2_000, 1, 20));
        }
        byte[] all = Files.readAllBytes(gz);
        Path gzCut = Files.write(dir.resolve("gzcut.gz"), Arrays.copyOf(all, all.length / 2));
        assertThatThrownBy(() -> readAll(gzCut, 20)).isInstanceOf(IOException.class)
                .hasMessageContaining(gzCut.toString());
    }

    @Test
    void missingFilesAndBadSizesAreRefused() {
        assertThatThrownBy(() -> TraceReader.open(dir.resolve("nope"), 20))
                .isInstanceOf(java.nio.file.NoSuchFileException.class);
        assertThatThrownBy(() -> TraceReader.open(dir, 20)).hasMessageContaining("directory");
        assertThatThrownBy(() -> TraceReader.open(dir.resolve("x"), 8))
                .hasMessageContaining("entry size 8");
    }

    private static List<WorldCupRecord> readAll(Path f, int es) throws IOException {
        List<WorldCupRecord> out = new ArrayList<>();
        try (TraceReader r = TraceReader.open(f, es)) {
            for (WorldCupRecord x; (x = r.next()) != null;) {
                out.add(x);
            }
        }
        return out;
    }
}
