package org.smartssd.device;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * A small pool of direct buffers of one size, owned by a device: scratch space the native
 * layer fills (results of stat, poll, listing) and staging for heap data. Taking and giving
 * back allocate nothing; when the pool is empty a new buffer is made, and at most
 * {@code capacity} are kept. Buffers are 8-byte aligned and in native byte order.
 */
final class BufferPool {
    private final int bufferSize;
    private final ArrayBlockingQueue<ByteBuffer> free;

    BufferPool(int bufferSize, int capacity) {
        this.bufferSize = bufferSize;
        this.free = new ArrayBlockingQueue<>(capacity);
    }

    int bufferSize() {
        return bufferSize;
    }

    ByteBuffer take() {
        ByteBuffer b = free.poll();
        if (b == null) {
            b = ByteBuffer.allocateDirect(bufferSize + 8).alignedSlice(8);
            b.limit(bufferSize);
        }
        b.clear();
        return b.order(ByteOrder.nativeOrder());
    }

    void give(ByteBuffer b) {
        if (b.capacity() >= bufferSize) {
            free.offer(b);
        }
    }

    /** Buffers currently idle in the pool. */
    int idle() {
        return free.size();
    }
}
