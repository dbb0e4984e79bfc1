package org.smartssd.fs.sscache;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.Devd;
import org.smartssd.device.SmartSsdDevice;
import org.smartssd.device.SolidStateCache;

/**
 * SIGKILL of smartssd-devd at random points of mixed write-dirty, write-clean, evict and
 * clean traffic, against this checker's own model of what the drive acknowledged (FlashTier
 * §4.2.5, Table 4.1). After each restart, for every address:
 * <ul>
 * <li>no read returns data that was never the block's latest acknowledged or in-flight
 *     value (no stale read);</li>
 * <li>an acknowledged dirty block (not cleaned or evicted since) is present, with its
 *     data, and {@code exists} says dirty;</li>
 * <li>an acknowledged evict stays evicted;</li>
 * <li>clean blocks may be missing.</li>
 * </ul>
 * {@code -Dsscache.crash.rounds=N} (default 50; {@code smartssd-fs/crash-rounds.sh} runs 500).
 */
@Tag("full") // crash rounds; CrashTest stays in the fast tier
class CacheCrashRoundsTest {
    private static final Duration READY = Duration.ofSeconds(60);
    /** Addresses in three groups: adjacent blocks, a group boundary, far apart. */
    private static final long[] BASES = {0x1000, 0x7_0000_0000L - 8, 0x5555_0000_0000L};
    private static final int PER_BASE = 16;

    enum Kind { ABSENT, CLEAN, DIRTY, CLEANED }

    /** What the drive acknowledged for one address, and the operation in flight on it. */
    static final class Model {
        Kind kind = Kind.ABSENT;
        long value;
        String inFlight; // "dirty", "clean", "evict", "mark-clean", or null
        long inFlightValue;
    }

    @Test
    void noStaleReadNoLostDirtyBlockNoResurrectedEvictAcrossDaemonKills(@TempDir Path dir)
            throws Exception {
        int rounds = Integer.getInteger("sscache.crash.rounds", 50);
        long seed = Long.getLong("sscache.crash.seed", 20261123L);
        Random random = new Random(seed);
        Path img = dir.resolve("crash.img");
        Path sock = dir.resolve("crash.sock");
        SmartSsdDevice.formatEmulated(img, null, 512L << 20, 0,
                SmartSsdDevice.CACHE_SHARE_DEFAULT);
        Map<Long, Model> model = new HashMap<>();
        List<Long> addresses = new ArrayList<>();
        for (long base : BASES) {
            for (int i = 0; i < PER_BASE; i++) {
                addresses.add(base + i);
                model.put(base + i, new Model());
            }
        }
        ExecutorService pool = Executors.newSingleThreadExecutor();
        Devd devd = Devd.start(img, sock, READY);
        long sequence = 1;
        int checkedRounds = 0;
        try (SmartSsdDevice device = SmartSsdDevice.open(devd.uri())) {
            SolidStateCache cache = device.cache();
            int bs = cache.blockSize();
            for (int round = 0; round < rounds; round++) {
                int killAfter = 1 + random.nextInt(120);
                Semaphore acked = new Semaphore(0);
                long firstValue = sequence;
                long roundSeed = random.nextLong();
                Future<Long> traffic = pool.submit(() -> traffic(cache, bs, model, addresses,
                        new Random(roundSeed), firstValue, acked));
                assertThat(acked.tryAcquire(killAfter, 120, TimeUnit.SECONDS))
                        .as("round %d: %d acknowledged operations before the kill", round,
                                killAfter).isTrue();
                devd.kill();
                sequence = traffic.get(120, TimeUnit.SECONDS);
                devd = Devd.start(img, sock, READY);
                check(cache, bs, model, addresses, round);
                checkedRounds++;
            }
        } finally {
            pool.shutdownNow();
            devd.close();
        }
        assertThat(checkedRounds).isEqualTo(rounds);
    }

    /**
     * Random operations until the daemon dies; every acknowledged one is put in the model,
     * the one that fails is left as in flight. Returns the next unused value.
     */
    private static long traffic(SolidStateCache cache, int bs, Map<Long, Model> model,
                                List<Long> addresses, Random random, long value,
                                Semaphore acked) {
        for (;;) {
            int at = random.nextInt(addresses.size());
            int count = 1 + random.nextInt(Math.min(4, addresses.size() - at));
            // stay inside one group of consecutive addresses
            long first = addresses.get(at);
            while (count > 1 && !addresses.contains(first + count - 1)) {
                count--;
            }
            int op = random.nextInt(100);
            String kind = op < 35 ? "dirty" : op < 65 ? "clean" : op < 80 ? "evict" : "mark-clean";
            byte[] buf = new byte[count * bs];
            for (int k = 0; k < count; k++) {
                Model m = model.get(first + k);
                // the drive keeps a dirty block's data over a write-clean: nothing in flight
                boolean noOp = "clean".equals(kind) && m.kind == Kind.DIRTY;
                m.inFlight = noOp ? null : kind;
                m.inFlightValue = value + k;
                fill(buf, k * bs, bs, first + k, value + k);
            }
            try {
                switch (kind) {
                    case "dirty" -> cache.writeDirty(first, buf, 0, count);
                    case "clean" -> cache.writeClean(first, buf, 0, count);
                    case "evict" -> cache.evict(first, count);
                    default -> cache.clean(first, count);
                }
            } catch (IOException e) {
                return value + count; // the daemon is gone: this one stays in flight
            }
            for (int k = 0; k < count; k++) {
                Model m = model.get(first + k);
                switch (kind) {
                    case "dirty" -> {
                        m.kind = Kind.DIRTY;
                        m.value = value + k;
                    }
                    case "clean" -> {
                        if (m.kind != Kind.DIRTY) {
                            m.kind = Kind.CLEAN;
                            m.value = value + k;
                        }
                    }
                    case "evict" -> m.kind = Kind.ABSENT;
                    default -> {
                        if (m.kind == Kind.DIRTY) {
                            m.kind = Kind.CLEANED;
                        }
                    }
                }
                m.inFlight = null;
            }
            value += count;
            acked.release();
        }
    }

    /** Block content: the address and a value never used twice, over the whole block. */
    private static void fill(byte[] buf, int off, int bs, long address, long value) {
        ByteBuffer b = ByteBuffer.wrap(buf, off, bs);
        while (b.remaining() >= 16) {
            b.putLong(address).putLong(value);
        }
    }

    private static void check(SolidStateCache cache, int bs, Map<Long, Model> model,
                              List<Long> addresses, int round) throws IOException {
        byte[] buf = new byte[bs];
        for (long a : addresses) {
            Model m = model.get(a);
            long[] present = cache.read(a, 1, buf, 0);
            boolean hit = BlockCacheIo.bit(present, 0);
            boolean dirty = BlockCacheIo.bit(cache.exists(a, 1), 0);
            String where = "round " + round + ", address 0x" + Long.toHexString(a) + ", model "
                    + m.kind + "/" + m.value + ", in flight " + m.inFlight + "/" + m.inFlightValue;
            Long found = null;
            if (hit) {
                found = decode(buf, a, where);
            }
            boolean flightWrite = "dirty".equals(m.inFlight) || "clean".equals(m.inFlight);
            if (found != null) {
                boolean acknowledgedValue = m.kind != Kind.ABSENT && found == m.value;
                boolean inFlightValue = flightWrite && found == m.inFlightValue;
                assertThat(acknowledgedValue || inFlightValue)
                        .as("stale or foreign data %d at %s", found, where).isTrue();
            }
            // a dirty block may only go by an operation that was in flight and could drop
            // it or make it clean (evict, clean); a write-dirty keeps it dirty, and the
            // drive leaves it as it is under a write-clean
            if (m.kind == Kind.DIRTY && (m.inFlight == null || "dirty".equals(m.inFlight))) {
                assertThat(found).as("acknowledged dirty block lost at %s", where).isNotNull();
                if (m.inFlight == null) {
                    assertThat(found).as("acknowledged dirty data at %s", where)
                            .isEqualTo(m.value);
                }
                assertThat(dirty).as("exists of an acknowledged dirty block at %s", where)
                        .isTrue();
            }
            if (m.kind == Kind.ABSENT && !flightWrite) {
                assertThat(hit).as("an evicted (or never written) block is back at %s", where)
                        .isFalse();
            }
            if (dirty) {
                assertThat(hit).as("exists says dirty but read misses at %s", where).isTrue();
            }
            // the drive's state is the model from here on
            m.inFlight = null;
            if (found == null) {
                m.kind = Kind.ABSENT;
            } else {
                m.kind = dirty ? Kind.DIRTY : Kind.CLEAN;
                m.value = found;
            }
        }
    }

    private static long decode(byte[] buf, long address, String where) {
        ByteBuffer b = ByteBuffer.wrap(buf);
        long a = b.getLong();
        long v = b.getLong();
        assertThat(a).as("a block of another address at %s", where).isEqualTo(address);
        byte[] expected = new byte[buf.length];
        fill(expected, 0, buf.length, a, v);
        assertThat(Arrays.equals(buf, expected)).as("a torn block at %s", where).isTrue();
        return v;
    }
}
