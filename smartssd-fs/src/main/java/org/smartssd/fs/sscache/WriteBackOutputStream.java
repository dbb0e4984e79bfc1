package org.smartssd.fs.sscache;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A file written in write-back mode: its bytes go to the drive's cache as dirty blocks, in
 * batches of one drive command, and {@link #close()} acknowledges it (its manifest becomes
 * CLOSED, durable). The backing store receives it later, from the cleaner. A failed write
 * leaves the stream failed: closing it drops the file, since it was never acknowledged.
 */
final class WriteBackOutputStream extends OutputStream {
    private final WriteBackManager manager;
    private final WriteBackManager.PendingFile file;
    private final byte[] batch;
    private final int payload;
    private int batchLength;
    private long batchFirstBlock;
    private long written;
    private boolean closed;
    private IOException failure;

    WriteBackOutputStream(WriteBackManager manager, WriteBackManager.PendingFile file) {
        this.manager = manager;
        this.file = file;
        this.payload = manager.io().payload();
        this.batch = new byte[manager.io().maxBlocksPerCall() * payload];
    }

    private void checkUsable() throws IOException {
        if (closed) {
            throw new IOException(file.pathKey() + ": the stream is closed");
        }
        if (failure != null) {
            throw new IOException(file.pathKey() + ": an earlier write failed", failure);
        }
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        checkUsable();
        while (len > 0) {
            int n = Math.min(len, batch.length - batchLength);
            System.arraycopy(b, off, batch, batchLength, n);
            batchLength += n;
            written += n;
            off += n;
            len -= n;
            if (batchLength == batch.length) {
                sendBatch(CacheBlock.ANY_LENGTH);
            }
        }
    }

    private void sendBatch(long fileLength) throws IOException {
        int blocks = (batchLength + payload - 1) / payload;
        if (blocks == 0) {
            return;
        }
        try {
            manager.writeBlocks(file, batchFirstBlock, blocks, batch, batchLength, fileLength);
        } catch (IOException e) {
            failure = e;
            throw e;
        }
        batchFirstBlock += blocks;
        batchLength = 0;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (failure == null) {
            try {
                sendBatch(written);
                manager.commit(file, written);
                return;
            } catch (IOException e) {
                failure = e;
            }
        }
        try {
            manager.cancel(file);
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
        throw new IOException(file.pathKey() + ": not written; the file is dropped", failure);
    }
}
