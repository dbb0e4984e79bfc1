package org.smartssd.fs.sscache;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * A write-back file's record, kept as a dirty block at a manifest address
 * ({@link CacheBlock.Addresses#manifest}) so that it survives any crash of the host or the
 * drive, and found again with {@code exists} over the manifest range. Layout (big-endian):
 * magic "SSCM", u16 layout 1, u16 state, i32 slot, i64 mtime, i64 length, i64 blocks
 * reserved (an upper bound on the data blocks written while OPEN), u32 path bytes, the
 * backing path (UTF-8), and a CRC-32C of everything before it.
 *
 * @param state    OPEN (being written: not acknowledged, dropped at recovery) or CLOSED
 *                 (acknowledged: written back at recovery, unless some of its blocks are
 *                 clean already, which happens only once it was written back)
 */
record Manifest(State state, int slot, String pathKey, long mtime, long length, long reserved) {
    enum State { OPEN, CLOSED }

    static final int MAGIC = 0x5353434d;
    static final int FIXED_BYTES = 4 + 2 + 2 + 4 + 8 + 8 + 8 + 4 + 4;

    static int maxPathBytes(int blockSize) {
        return blockSize - FIXED_BYTES;
    }

    byte[] encode(int blockSize) {
        byte[] path = pathKey.getBytes(StandardCharsets.UTF_8);
        if (path.length > maxPathBytes(blockSize)) {
            throw new IllegalArgumentException(pathKey + ": the path is " + path.length
                    + " bytes; write-back keeps at most " + maxPathBytes(blockSize));
        }
        byte[] block = new byte[blockSize];
        ByteBuffer b = ByteBuffer.wrap(block);
        b.putInt(MAGIC).putShort((short) 1).putShort((short) state.ordinal()).putInt(slot)
                .putLong(mtime).putLong(length).putLong(reserved).putInt(path.length).put(path);
        CRC32C crc = new CRC32C();
        crc.update(block, 0, b.position());
        b.putInt((int) crc.getValue());
        return block;
    }

    static Optional<Manifest> decode(byte[] block, int off, int blockSize) {
        ByteBuffer b = ByteBuffer.wrap(block, off, blockSize);
        if (b.getInt() != MAGIC || b.getShort() != 1) {
            return Optional.empty();
        }
        int state = b.getShort();
        int slot = b.getInt();
        long mtime = b.getLong();
        long length = b.getLong();
        long reserved = b.getLong();
        int pathBytes = b.getInt();
        if (state < 0 || state >= State.values().length || pathBytes < 0
                || pathBytes > maxPathBytes(blockSize)) {
            return Optional.empty();
        }
        byte[] path = new byte[pathBytes];
        b.get(path);
        int end = b.position() - off;
        CRC32C crc = new CRC32C();
        crc.update(block, off, end);
        if (b.getInt() != (int) crc.getValue()) {
            return Optional.empty();
        }
        return Optional.of(new Manifest(State.values()[state], slot,
                new String(path, StandardCharsets.UTF_8), mtime, length, reserved));
    }

    Manifest with(State s, long newLength, long newReserved) {
        return new Manifest(s, slot, pathKey, mtime, newLength, newReserved);
    }
}
