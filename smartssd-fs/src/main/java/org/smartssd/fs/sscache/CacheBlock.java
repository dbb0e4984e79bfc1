package org.smartssd.fs.sscache;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The layout of one cache block (one flash page of the drive's cache): a 64-byte header,
 * then up to {@code blockSize - 64} bytes of the file. The header makes every block
 * self-verifying, so neither an address shared by two paths (the address is a hash of the
 * path) nor an older version of the file can ever be served:
 *
 * <pre>
 *  0  u32  magic "SSCB"          16 i64 file length, or -1: a full block, valid for
 *  4  u16  layout version 1               any length of this version that covers it
 *  6  u16  0                     24 u32 payload bytes
 *  8  i64  block index           28 u32 CRC-32C of the payload
 * 32  32 B SHA-256 of the file version (FileVersion#digest)
 * </pre>
 * Big-endian. A block that fails any check is a miss.
 */
public final class CacheBlock {
    public static final int HEADER_BYTES = 64;
    static final int MAGIC = 0x53534342;
    static final short LAYOUT = 1;
    /** File length of a full block: valid whatever the length, as long as it covers it. */
    public static final long ANY_LENGTH = -1;

    private CacheBlock() {
    }

    /** File bytes one cache block holds. */
    public static int payloadBytes(int blockSize) {
        if (blockSize <= HEADER_BYTES) {
            throw new IllegalArgumentException("cache block size " + blockSize
                    + " leaves no room after the " + HEADER_BYTES + "-byte header");
        }
        return blockSize - HEADER_BYTES;
    }

    /** Writes header and payload into {@code dst[off, off + blockSize)}; the rest is zero. */
    public static void encode(byte[] dst, int off, int blockSize, byte[] versionDigest,
                              long index, long fileLength, byte[] src, int srcOff, int len) {
        if (len < 0 || len > payloadBytes(blockSize)) {
            throw new IllegalArgumentException("payload of " + len + " bytes does not fit a "
                    + blockSize + "-byte cache block");
        }
        ByteBuffer b = ByteBuffer.wrap(dst, off, blockSize);
        CRC32C crc = new CRC32C();
        crc.update(src, srcOff, len);
        b.putInt(MAGIC).putShort(LAYOUT).putShort((short) 0).putLong(index)
                .putLong(fileLength).putInt(len).putInt((int) crc.getValue())
                .put(versionDigest, 0, 32);
        System.arraycopy(src, srcOff, dst, off + HEADER_BYTES, len);
        Arrays.fill(dst, off + HEADER_BYTES + len, off + blockSize, (byte) 0);
    }

    /**
     * Whether the block at {@code src[off..]} holds block {@code index} of {@code version}:
     * magic, layout, index, digest, payload length and CRC all agree. A full block written
     * with {@link #ANY_LENGTH} serves any length that covers it; a partial (last) block
     * only the length it was written for.
     */
    public static boolean matches(byte[] src, int off, int blockSize, byte[] versionDigest,
                                  FileVersion version, long index) {
        int payload = payloadBytes(blockSize);
        long start = index * payload;
        if (start >= version.length()) {
            return false;
        }
        int expected = (int) Math.min(payload, version.length() - start);
        ByteBuffer b = ByteBuffer.wrap(src, off, blockSize);
        if (b.getInt() != MAGIC || b.getShort() != LAYOUT) {
            return false;
        }
        b.getShort();
        if (b.getLong() != index) {
            return false;
        }
        long fileLength = b.getLong();
        int len = b.getInt();
        int crc = b.getInt();
        if (len != expected) {
            return false;
        }
        if (fileLength != version.length()
                && !(fileLength == ANY_LENGTH && expected == payload)) {
            return false;
        }
        if (!MessageDigest.isEqual(Arrays.copyOfRange(src, off + 32, off + 64), versionDigest)) {
            return false;
        }
        CRC32C c = new CRC32C();
        c.update(src, off + HEADER_BYTES, len);
        return (int) c.getValue() == crc;
    }

    /** Payload bytes of a block that {@link #matches}. */
    public static int payloadLength(byte[] src, int off) {
        return ByteBuffer.wrap(src, off + 24, 4).getInt();
    }

    /**
     * Cache addresses. Data blocks: bit 63 clear, the high 40 bits from SHA-256 of the path,
     * the low 24 bits the block index; a path's blocks are consecutive, so they share the
     * drive's erase-block groups. Manager records (write-back manifests): bit 63 set.
     */
    public static final class Addresses {
        /** Blocks of one file that can be cached; later blocks are read from the backing store. */
        public static final long MAX_BLOCKS_PER_FILE = 1L << 24;
        public static final long MANIFEST_BASE = 0x8000_0000_0000_0000L;
        public static final int MANIFEST_SLOTS = 4096;

        private Addresses() {
        }

        public static long dataBase(String pathKey) {
            byte[] h = FileVersion.sha256().digest(
                    ("sscache-address-v1\0" + pathKey).getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(h).getLong() & 0x7FFF_FFFF_FF00_0000L;
        }

        public static long manifest(int slot) {
            return MANIFEST_BASE + slot;
        }
    }
}
