package org.smartssd.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Emulated drives and tasklet parameters for the tests. */
public final class TestDrives {
    static final int GREP = 4;
    static final int GROUP_AGG = 1;
    static final int TRAILER = 32;
    static final int TRAILER_MAGIC = 0x52545353;

    private TestDrives() {
    }

    /** A freshly formatted 256 MiB kang-smartssd image. */
    public static Path image(Path dir) throws IOException {
        Path img = dir.resolve("dev0.img");
        SmartSsdDevice.formatEmulated(img, null, 256L << 20, 0);
        return img;
    }

    /**
     * A profile file like kang-smartssd but with 2 channels x 2 ways, so a drive of a few
     * MiB is possible. It keeps the built-in's name, so emu: reopens the image without it.
     */
    public static Path tinyProfile(Path dir) throws IOException {
        Path src = Path.of(System.getProperty("smartssd.source.root", "../.."))
                .resolve("firmware-tasklets/emu/profiles/kang-smartssd.profile").normalize();
        String text = Files.readString(src)
                .replaceFirst("(?m)^channels = 16", "channels = 2")
                .replaceFirst("(?m)^ways = 4", "ways = 2");
        return Files.writeString(dir.resolve("tiny.profile"), text);
    }

    /** grep params (builtin_tasklets.h struct ss_bt_grep_params): flags, 0, len, pattern. */
    static byte[] grepParams(boolean emit, String pattern) {
        byte[] p = pattern.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(4 + p.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) (emit ? 1 : 0)).put((byte) 0).putShort((short) p.length).put(p);
        return b.array();
    }

    /** group-aggregate params (struct ss_bt_agg_params), one key. */
    static byte[] aggParams(int key, int value, int ops) {
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 1).put((byte) key).put((byte) 0).put((byte) value).put((byte) ops);
        b.put(new byte[3]).putInt(0).putInt(0);
        return b.array();
    }

    /** The trailer at the end of a built-in tasklet's output: magic, id, in, out, aux. */
    record Trailer(int magic, int taskletId, long recordsIn, long itemsOut, long aux) {
        static Trailer of(byte[] output) {
            ByteBuffer b = ByteBuffer.wrap(output, output.length - TRAILER, TRAILER)
                    .order(ByteOrder.LITTLE_ENDIAN);
            return new Trailer(b.getInt(), b.getInt(), b.getLong(), b.getLong(), b.getLong());
        }
    }

    /** Text of n lines; every k-th line holds "hit". */
    static String lines(int n, int k) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append("line ").append(i).append(i % k == 0 ? " hit" : "").append('\n');
        }
        return sb.toString();
    }

    static List<String> hitLines(int n, int k) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < n; i += k) {
            l.add("line " + i + " hit");
        }
        return l;
    }
}
