package org.smartssd.device.tasklet;

import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;

import org.smartssd.device.RecordLayout;

/**
 * The records of a byte range of an object, cut on the host by the drive's split rules
 * ({@code isp_reader.c}), so a host version of a tasklet sees exactly the records the
 * drive's run over the same range sees: FIXED, the whole records whose first byte lies in the
 * range; TEXT, the lines starting in it (past offset 0, a line starts after a delimiter), the
 * last one read on past the range's end to its delimiter or the end of the object, each
 * without its delimiter, a final line without delimiter only when not empty. A line longer
 * than the layout's record size fails the range, as the drive's run does.
 */
public final class SplitRecords {
    /** Positional reads of the object, as {@code FSDataInputStream#read(long, ...)}. */
    @FunctionalInterface
    public interface Input {
        /** Up to {@code len} bytes at {@code pos}; -1 at the end. */
        int read(long pos, byte[] b, int off, int len) throws IOException;

        /** Reads of bytes in memory (a calibration sample, a test's object). */
        static Input of(byte[] data) {
            return (pos, b, off, len) -> {
                int n = (int) Math.min(len, data.length - pos);
                if (n <= 0) {
                    return -1;
                }
                System.arraycopy(data, (int) pos, b, off, n);
                return n;
            };
        }
    }

    /** Takes one record (bytes {@code [off, off + len)} of {@code b}, valid during the call);
     *  false stops the cut. */
    @FunctionalInterface
    public interface Sink {
        boolean accept(byte[] b, int off, int len) throws IOException;
    }

    static final int CHUNK = 1 << 20;
    /** A text range's first read past its end, for the rest of its last line. */
    static final int TAIL_READ = 128;

    private SplitRecords() {
    }

    /**
     * Cuts {@code [start, start + length)} of an object of {@code size} bytes into records of
     * {@code layout}, giving each to {@code sink} in order.
     *
     * @return the bytes read from {@code in}
     */
    public static long cut(RecordLayout layout, long size, long start, long length, Input in,
                           Sink sink) throws IOException {
        long end = Math.min(size, start + length);
        if (start >= end) {
            return 0;
        }
        return layout.kind() == RecordLayout.Kind.FIXED
                ? fixed(layout.recordSize(), size, start, end, in, sink)
                : text(layout, size, start, end, in, sink);
    }

    private static long fixed(int rs, long size, long start, long end, Input in, Sink sink)
            throws IOException {
        long first = (start + rs - 1) / rs * rs;
        long limit = Math.min((end + rs - 1) / rs * rs, size / rs * rs);
        byte[] buf = new byte[Math.max(1, CHUNK / rs) * rs];
        long read = 0;
        for (long pos = first; pos < limit; ) {
            int n = (int) Math.min(buf.length, limit - pos);
            readFully(in, pos, buf, n);
            read += n;
            for (int off = 0; off < n; off += rs) {
                if (!sink.accept(buf, off, rs)) {
                    return read;
                }
            }
            pos += n;
        }
        return read;
    }

    private static long text(RecordLayout layout, long size, long start, long end, Input in,
                             Sink sink) throws IOException {
        byte delim = (byte) layout.lineDelim();
        int max = layout.recordSize();
        byte[] buf = new byte[CHUNK];
        byte[] line = new byte[Math.min(max, CHUNK) + 1];
        int lineLen = 0;
        long pos = start == 0 ? 0 : start - 1;
        boolean skipping = start != 0; // byte start-1 tells whether a line starts at start
        long lineStart = start;
        long read = 0;
        // the last line starts before end and is at most max bytes: its delimiter lies before
        // end + max, so nothing past that is read, and past end the reads grow from a short
        // line's length, so a range reads about its own bytes, not CHUNK or max more
        long stop = Math.min(size, end + max + 1);
        int tail = TAIL_READ;
        while (pos < stop) {
            long want = pos < end ? end - pos : tail;
            if (pos >= end) {
                tail = Math.min(2 * tail, CHUNK);
            }
            int n = in.read(pos, buf, 0, (int) Math.min(buf.length, Math.min(stop - pos, want)));
            if (n <= 0) {
                throw new EOFException("object of " + size + " bytes ends at " + pos);
            }
            read += n;
            for (int i = 0; i < n; i++) {
                long at = pos + i;
                if (skipping) {
                    if (at >= end - 1) {
                        return read; // no line starts inside the range
                    }
                    if (buf[i] == delim) {
                        skipping = false;
                        lineStart = at + 1;
                    }
                    continue;
                }
                if (buf[i] == delim) {
                    if (!sink.accept(line, 0, lineLen)) {
                        return read;
                    }
                    lineLen = 0;
                    lineStart = at + 1;
                    if (lineStart >= end) {
                        return read;
                    }
                    continue;
                }
                if (lineLen == max) {
                    throw new IOException("line at byte " + lineStart + " is longer than "
                            + max + " bytes (the layout's longest line)");
                }
                if (lineLen == line.length) {
                    line = Arrays.copyOf(line, Math.min(max, 2 * line.length) + 1);
                }
                line[lineLen++] = buf[i];
            }
            pos += n;
        }
        if (!skipping && lineLen > 0) {
            // stop < size would have failed the line as too long first: this is the object's end
            sink.accept(line, 0, lineLen);
        }
        return read;
    }

    private static void readFully(Input in, long pos, byte[] b, int n) throws IOException {
        for (int off = 0; off < n; ) {
            int r = in.read(pos + off, b, off, n - off);
            if (r <= 0) {
                throw new EOFException("object ends at " + (pos + off) + " inside a record");
            }
            off += r;
        }
    }
}
