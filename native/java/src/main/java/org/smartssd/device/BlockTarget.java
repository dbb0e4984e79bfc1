package org.smartssd.device;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A block device of 4 KiB blocks kept by the host over an open-channel drive (pblk's
 * design; native/include/smartssd/blk.h): the map in host memory, writes striped over the
 * parallel units, trim, host GC. Opening it rebuilds the map after a crash from the
 * newest checkpoint and the blocks' out-of-band metadata.
 *
 * <p>Durability: a write or trim returns once it is in the host's write buffer; it is
 * durable (survives a crash of this process or of the drive) once a {@code fua} write
 * returns, or a later {@link #flush()} or {@link #close()} does.
 *
 * <p>Thread-safe: calls are serialized. Close it before its device.
 */
public final class BlockTarget implements AutoCloseable {
    /** Bytes of a block. */
    public static final int BLOCK = 4096;

    private final DeviceSession s;
    private long handle;

    private BlockTarget(DeviceSession s, long handle) {
        this.s = s;
        this.handle = handle;
    }

    /** Opens the target with the default over-provisioning (10%) and checkpoint interval
     *  (4 lines), or the given ones (0: the default). */
    static BlockTarget open(DeviceSession s, int opPermille, int checkpointLines)
            throws IOException {
        long h = s.withHandle(d -> s.check(SmartSsdNative.blkOpen0(d, opPermille,
                checkpointLines), "block target open"));
        return new BlockTarget(s, h);
    }

    /** Reads {@code n} blocks from {@code lba} into a direct buffer from its position on;
     *  blocks never written or trimmed read as zeros. */
    public synchronized void read(long lba, int n, ByteBuffer into) throws IOException {
        io(false, lba, n, into, false);
    }

    /** Writes the direct buffer's remaining bytes (whole blocks) at {@code lba}; with
     *  {@code fua}, durable when this returns. */
    public synchronized void write(long lba, ByteBuffer data, boolean fua) throws IOException {
        Objects.requireNonNull(data, "data");
        if (data.remaining() % BLOCK != 0) {
            throw new IllegalArgumentException(data.remaining() + " bytes: not whole "
                    + BLOCK + "-byte blocks");
        }
        io(true, lba, data.remaining() / BLOCK, data, fua);
    }

    /** Forgets {@code n} blocks from {@code lba}: they read as zeros. */
    public synchronized void trim(long lba, long n) throws IOException {
        long h = open();
        s.withHandle(d -> s.check(SmartSsdNative.blkTrim0(h, lba, n), "block target trim at",
                lba));
    }

    /** Makes every write and trim before it durable. */
    public synchronized void flush() throws IOException {
        long h = open();
        s.withHandle(d -> s.check(SmartSsdNative.blkFlush0(h), "block target flush"));
    }

    public synchronized BlockTargetStats stats() throws IOException {
        long h = open();
        return s.withScratch((d, out) -> {
            s.check(SmartSsdNative.blkStats0(h, out), "block target stats");
            return BlockTargetStats.decode(out);
        });
    }

    /** Flushes, checkpoints the map and frees the target (freed even when that fails). */
    @Override
    public synchronized void close() throws IOException {
        if (handle == 0) {
            return;
        }
        long h = handle;
        handle = 0;
        s.withHandle(d -> s.check(SmartSsdNative.blkClose0(h), "block target close"));
    }

    private void io(boolean write, long lba, int n, ByteBuffer buf, boolean fua)
            throws IOException {
        long h = open();
        Objects.requireNonNull(buf, "buffer");
        if (!buf.isDirect() || n < 0 || buf.remaining() < (long) n * BLOCK) {
            throw new IllegalArgumentException("a direct buffer with " + (long) n * BLOCK
                    + " bytes remaining is needed");
        }
        s.withHandle(d -> s.check(SmartSsdNative.blkIo0(h, write, lba, n, buf, buf.position(),
                fua), write ? "block target write at" : "block target read at", lba));
    }

    private long open() {
        if (handle == 0) {
            throw new IllegalStateException("the block target is closed");
        }
        return handle;
    }
}
