package org.smartssd.mapreduce;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.smartssd.device.RecordLayout;
import org.smartssd.device.RecordLayout.Field;
import org.smartssd.device.RecordLayout.FieldType;

/**
 * Generated fixed-width request records (20 bytes, big-endian): id U32 @0, region U16 @4,
 * value I64 @8 (small signed range, so ties happen), method BYTES[4] @16 ("GET " or
 * "POST"). The tests compute expected answers from {@link #all()} with plain Java.
 */
final class Requests {
    static final int SIZE = 20;
    static final int ID = 0;
    static final int REGION = 1;
    static final int VALUE = 2;
    static final int METHOD = 3;
    static final RecordLayout LAYOUT = RecordLayout.fixed(SIZE, List.of(
            Field.of(0, FieldType.U32), Field.of(4, FieldType.U16), Field.of(8, FieldType.I64),
            new Field(16, FieldType.BYTES, 4, 0, 0)));

    record Request(long id, int region, long value, String method) {
    }

    private final List<Request> all = new ArrayList<>();

    Requests(int n, int regions, long seed) {
        Random rnd = new Random(seed);
        for (int i = 0; i < n; i++) {
            all.add(new Request(i, rnd.nextInt(regions), rnd.nextInt(2001) - 1000,
                    rnd.nextInt(4) == 0 ? "POST" : "GET "));
        }
    }

    List<Request> all() {
        return all;
    }

    /** Per region: count, sum, min and max of the value, computed here in plain Java. */
    Map<Long, long[]> statsByRegion() {
        Map<Long, long[]> stats = new TreeMap<>();
        for (Request r : all) {
            long[] e = stats.computeIfAbsent((long) r.region(),
                    k -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
            e[0]++;
            e[1] += r.value();
            e[2] = Math.min(e[2], r.value());
            e[3] = Math.max(e[3], r.value());
        }
        return stats;
    }

    byte[] bytes() {
        ByteBuffer b = ByteBuffer.allocate(all.size() * SIZE); // big-endian
        for (Request r : all) {
            b.putInt((int) r.id()).putShort((short) r.region()).putShort((short) 0)
                    .putLong(r.value()).put(r.method().getBytes(StandardCharsets.US_ASCII));
        }
        return b.array();
    }

    static byte[] record(Request r) {
        ByteBuffer b = ByteBuffer.allocate(SIZE);
        b.putInt((int) r.id()).putShort((short) r.region()).putShort((short) 0)
                .putLong(r.value()).put(r.method().getBytes(StandardCharsets.US_ASCII));
        return b.array();
    }
}
