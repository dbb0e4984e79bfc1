package org.smartssd.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.smartssd.device.ModelCounters;
import org.smartssd.device.SmartSsdDevice;

/**
 * How readers read, for the read-ahead tests of {@code smartssd://} and {@code sscache://}
 * alike: every byte read is checked against the file's {@code content}, and a scan counts
 * what it asked for, the tests' reference for what crossed the link ({@link #linkBytes}).
 */
public final class ReadPatterns {
    /** What a scan asked for, in how many requests. */
    public record Asked(long bytes, long requests) {
    }

    private ReadPatterns() {
    }

    /** Bytes that have crossed the drive's link, both ways, by its own model counters. */
    public static long linkBytes(SmartSsdDevice dev) throws IOException {
        ModelCounters m = dev.modelCounters().orElseThrow();
        return m.linkBytesIn() + m.linkBytesOut();
    }

    /** seek + readFully through a heap ByteBuffer, as parquet-mr's H2SeekableInputStream. */
    public static void readAt(FSDataInputStream in, byte[] content, long offset, int len)
            throws Exception {
        in.seek(offset);
        ByteBuffer got = ByteBuffer.allocate(len);
        while (got.hasRemaining()) {
            assertThat(in.read(got)).as("read at %d", in.getPos()).isPositive();
        }
        assertThat(got.array()).as("bytes at %d", offset)
                .isEqualTo(Arrays.copyOfRange(content, (int) offset, (int) offset + len));
    }

    /** The whole file in 64 KiB reads from its start. */
    public static void readWhole(FSDataInputStream in, byte[] content) throws Exception {
        byte[] chunk = new byte[64 << 10];
        byte[] all = new byte[content.length];
        int at = 0;
        for (int n; (n = in.read(chunk)) > 0; at += n) {
            System.arraycopy(chunk, 0, all, at, n);
        }
        assertThat(at).isEqualTo(content.length);
        assertThat(all).isEqualTo(content);
    }

    /**
     * Spark's Parquet reader with a filter: the footer's tail and the footer, then a few bytes
     * at the start of one column chunk in every row group of {@code group} bytes (the
     * dictionary page header a byte at a time, then the page), then each row group's chunk
     * at {@code chunkAt} by vectored read.
     */
    public static Asked filteredParquetScan(FSDataInputStream in, byte[] content, int group,
                                            int chunkAt) throws Exception {
        int file = content.length;
        int dictAt = 12_000;
        int header = 20;
        int dict = 30;
        int chunk = 40_000;
        int groups = (file - (128 << 10)) / group;
        long footerAt = file - (100 << 10);
        int footer = 90_000;
        readAt(in, content, file - 8, 8);
        readAt(in, content, footerAt, footer);
        long asked = 8 + footer;
        long requests = 2;
        for (int g = 0; g < groups; g++) {
            long at = (long) g * group + dictAt;
            in.seek(at);
            for (int i = 0; i < header; i++) {
                assertThat(in.read()).as("byte %d", at + i)
                        .isEqualTo(content[(int) at + i] & 0xff);
            }
            readAt(in, content, at + header, dict);
            asked += header + dict;
            requests++;
        }
        for (int g = 0; g < groups; g++) {
            long at = (long) g * group + chunkAt;
            FileRange r = FileRange.createFileRange(at, chunk);
            in.readVectored(List.of(r), ByteBuffer::allocate);
            byte[] b = new byte[chunk];
            r.getData().get().get(b);
            assertThat(b).as("chunk at %d", at)
                    .isEqualTo(Arrays.copyOfRange(content, (int) at, (int) at + chunk));
            asked += chunk;
            requests++;
        }
        return new Asked(asked, requests);
    }
}
