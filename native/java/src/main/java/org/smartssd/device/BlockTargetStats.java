package org.smartssd.device;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The host block target's shape and counters (smartssd/blk.h: struct ss_blk_info and
 * struct ss_blk_stats). Blocks are {@link BlockTarget#BLOCK} bytes.
 *
 * @param blocks LBAs the target offers
 * @param pus parallel units its writes stripe over
 * @param lines data lines (two more hold the map's checkpoints)
 * @param lineBlocks blocks of a line (a chunk on every PU)
 * @param unitBlocks blocks of one write unit on one PU
 * @param mapBytes host memory of the map and the validity bitmap
 * @param userBlocksWritten blocks the user wrote since the target was opened
 * @param userBlocksRead blocks the user read
 * @param blocksTrimmed blocks trimmed
 * @param flashBlocksWritten blocks written to flash: user, GC, padding, trim records
 * @param padBlocks blocks written to fill a write unit at a flush
 * @param gcBlocksMoved valid blocks GC moved
 * @param gcLinesErased lines GC erased
 * @param gcMovesBesideReads blocks GC moved from a PU the user had just read
 * @param checkpoints map checkpoints written
 * @param recoveredRecords blocks replayed from the OOB metadata at the open
 * @param freeLines lines free now
 * @param validBlocks blocks holding an LBA's data now
 * @param bufferedBlocks blocks in the host write buffer, not durable yet
 */
public record BlockTargetStats(long blocks, long pus, long lines, long lineBlocks,
        long unitBlocks, long mapBytes, long userBlocksWritten, long userBlocksRead,
        long blocksTrimmed, long flashBlocksWritten, long padBlocks, long gcBlocksMoved,
        long gcLinesErased, long gcMovesBesideReads, long checkpoints, long recoveredRecords,
        long freeLines, long validBlocks, long bufferedBlocks) {

    /** Slots blkStats0 writes (jni_blk_ops.c, BLK_STAT_SLOTS). */
    static final int SLOTS = 19;

    static BlockTargetStats decode(ByteBuffer scratch) {
        ByteBuffer b = scratch.duplicate().order(ByteOrder.nativeOrder());
        long[] v = new long[SLOTS];
        for (int i = 0; i < SLOTS; i++) {
            v[i] = b.getLong(i * 8);
        }
        return new BlockTargetStats(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8],
                v[9], v[10], v[11], v[12], v[13], v[14], v[15], v[16], v[17], v[18]);
    }

    /** Flash blocks written per block the user wrote; 0 before any write. */
    public double writeAmplification() {
        return userBlocksWritten == 0 ? 0 : (double) flashBlocksWritten / userBlocksWritten;
    }
}
