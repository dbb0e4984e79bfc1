package org.smartssd.examples.usertasklet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The sensor log's own record format, which {@code sensor_stats.c} parses in the drive: 16
 * bytes, little-endian: sensor id u32, time u32 (seconds), temperature s16 (hundredths of a
 * degree C), flags u8 ({@link #CALIBRATED}, {@link #FAULT}), a check byte (the XOR of the other
 * 15 bytes), sequence number u32.
 */
public final class SensorReadings {
    public static final int SIZE = 16;
    public static final int CALIBRATED = 1;
    public static final int FAULT = 2;

    /** One reading as written; {@code check} is the byte stored at offset 11. */
    public record Reading(long sensor, long time, int temperature, int flags, int check,
                          long sequence) {
        /** Whether the check byte makes the record's XOR zero. */
        public boolean intact() {
            return check == expectedCheck(sensor, time, temperature, flags, sequence);
        }

        /** What the drive's program keeps: intact, calibrated, not faulty, in [from, to). */
        public boolean counts(long from, long to) {
            return intact() && (flags & (CALIBRATED | FAULT)) == CALIBRATED && time >= from
                    && time < to;
        }
    }

    private SensorReadings() {
    }

    /** The records, packed. */
    public static byte[] encode(List<Reading> readings) {
        ByteBuffer b = ByteBuffer.allocate(readings.size() * SIZE).order(ByteOrder.LITTLE_ENDIAN);
        for (Reading r : readings) {
            b.putInt((int) r.sensor()).putInt((int) r.time()).putShort((short) r.temperature())
                    .put((byte) r.flags()).put((byte) r.check()).putInt((int) r.sequence());
        }
        return b.array();
    }

    /** Every whole record of {@code bytes}. */
    public static List<Reading> decode(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        List<Reading> out = new ArrayList<>(bytes.length / SIZE);
        for (int at = 0; at + SIZE <= bytes.length; at += SIZE) {
            out.add(new Reading(Integer.toUnsignedLong(b.getInt(at)),
                    Integer.toUnsignedLong(b.getInt(at + 4)), b.getShort(at + 8),
                    b.get(at + 10) & 0xff, b.get(at + 11) & 0xff,
                    Integer.toUnsignedLong(b.getInt(at + 12))));
        }
        return out;
    }

    static int expectedCheck(long sensor, long time, int temperature, int flags, long sequence) {
        byte[] r = encode(List.of(new Reading(sensor, time, temperature, flags, 0, sequence)));
        int x = 0;
        for (byte v : r) {
            x ^= v;
        }
        return x & 0xff;
    }

    /**
     * {@code n} readings of {@code sensors} sensors over {@code seconds}, one in
     * {@code 1/corruptEvery} with a wrong check byte, some uncalibrated or faulty.
     */
    public static List<Reading> generate(int n, int sensors, long seconds, int corruptEvery,
                                         long seed) {
        Random rnd = new Random(seed);
        List<Reading> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long sensor = 1000 + rnd.nextInt(sensors);
            long time = (long) rnd.nextInt((int) seconds);
            int temp = (int) Math.round(rnd.nextGaussian() * 800 + 1800 + sensor % 7 * 150);
            temp = Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, temp));
            int flags = rnd.nextInt(20) == 0 ? 0 : CALIBRATED;
            flags |= rnd.nextInt(50) == 0 ? FAULT : 0;
            int check = expectedCheck(sensor, time, temp, flags, i);
            if (rnd.nextInt(corruptEvery) == 0) {
                check ^= 1 + rnd.nextInt(255);
            }
            out.add(new Reading(sensor, time, temp, flags, check, i));
        }
        return out;
    }
}
