package org.smartssd.fs.sscache;

import java.io.IOException;
import java.io.OutputStream;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.smartssd.fs.DriveLog;

/**
 * Write-through (FlashTier §4.3.4): every byte goes to the backing store, and each full
 * cache block is also cached clean as it completes, so the written file is warm. The
 * version those blocks belong to must be known before the file is closed, so the writer
 * chooses the file's modification time up front and sets it on the backing file at close
 * ({@link UniqueClock}); a backing store that ignores setTimes leaves the blocks
 * unreachable (never wrong). No per-block state is kept.
 */
final class WriteThroughOutputStream extends OutputStream implements Syncable, StreamCapabilities {

    private final FSDataOutputStream backingOut;
    private final FileSystem backing;
    private final Path backingPath;
    private final BlockCacheIo io;
    private final String pathKey;
    private final long mtime;
    private final byte[] digest;
    private final byte[] batch;
    private int batchLength;
    private long batchFirstBlock;
    private long written;
    private boolean closed;
    private boolean cacheFailed;

    WriteThroughOutputStream(FSDataOutputStream backingOut, FileSystem backing, Path backingPath,
                             BlockCacheIo io, long mtime) {
        this.backingOut = backingOut;
        this.backing = backing;
        this.backingPath = backingPath;
        this.io = io;
        this.pathKey = backing.makeQualified(backingPath).toString();
        this.mtime = mtime;
        this.digest = new FileVersion(pathKey, 0, mtime, "").digest();
        this.batch = new byte[io.maxBlocksPerCall() * io.payload()];
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException(backingPath + ": the stream is closed");
        }
        backingOut.write(b, off, len);
        written += len;
        while (len > 0) {
            int n = Math.min(len, batch.length - batchLength);
            System.arraycopy(b, off, batch, batchLength, n);
            batchLength += n;
            off += n;
            len -= n;
            if (batchLength == batch.length) {
                cacheBatch(CacheBlock.ANY_LENGTH);
            }
        }
    }

    /** The cache is best effort here: the backing store has every byte either way. */
    private void cacheBatch(long fileLength) {
        int blocks = (batchLength + io.payload() - 1) / io.payload();
        if (blocks > 0 && !cacheFailed) {
            try {
                io.write(pathKey, digest, batchFirstBlock, blocks, batch, batchLength,
                        fileLength, false);
            } catch (IOException | RuntimeException e) {
                cacheFailed = true;
                DriveLog.of(WriteThroughOutputStream.class, io.cache().drive()).warn(
                        "{}: the drive's cache failed ({}); the rest of this file is written "
                        + "to the backing store only", backingPath, e.toString());
            }
        }
        batchFirstBlock += blocks;
        batchLength = 0;
    }

    @Override
    public void flush() throws IOException {
        backingOut.flush();
    }

    @Override
    public void hflush() throws IOException {
        backingOut.hflush();
    }

    @Override
    public void hsync() throws IOException {
        backingOut.hsync();
    }

    @Override
    public boolean hasCapability(String capability) {
        return backingOut.hasCapability(capability);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        backingOut.close();
        try {
            backing.setTimes(backingPath, mtime, -1);
        } catch (IOException | UnsupportedOperationException e) {
            DriveLog.of(WriteThroughOutputStream.class, io.cache().drive()).debug(
                    "{}: setTimes not honoured; the cached blocks will not be found",
                    backingPath, e);
            return;
        }
        cacheBatch(written);
    }
}
