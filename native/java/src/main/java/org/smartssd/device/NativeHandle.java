package org.smartssd.device;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;

/**
 * A native pointer whose in-flight uses are counted, as zstd-jni's AutoCloseBase does: every
 * native call runs between {@link #acquire} and {@link #release}. {@link #close} stops new
 * acquisitions; the pointer is freed exactly once, by close when nothing is in flight or else
 * by the last release. So a pointer is never freed while a call uses it.
 */
final class NativeHandle {
    private static final long CLOSED = 1L << 62;
    private static final long FREED = -1L;

    private final AtomicLong state = new AtomicLong();
    private final long ptr;
    private final LongUnaryOperator freer;
    private final String name;
    private volatile long freeResult;

    /**
     * @param ptr   the native pointer
     * @param freer frees it; its result is kept for {@link #freeResult()}
     * @param name  names the resource in errors, e.g. the device URI
     */
    NativeHandle(long ptr, LongUnaryOperator freer, String name) {
        this.ptr = ptr;
        this.freer = freer;
        this.name = name;
    }

    /** Counts one use. Returns the pointer. */
    long acquire() throws TransportClosedException {
        for (;;) {
            long s = state.get();
            if (s < 0 || (s & CLOSED) != 0) {
                throw new TransportClosedException(name + ": the device is closed", Errno.EBADF, 0);
            }
            if (state.compareAndSet(s, s + 1)) {
                return ptr;
            }
        }
    }

    void release() {
        if (state.decrementAndGet() == CLOSED) {
            free();
        }
    }

    /** Stops new uses. Returns true for the call that closed it, false if already closed. */
    boolean close() {
        long s;
        do {
            s = state.get();
            if (s < 0 || (s & CLOSED) != 0) {
                return false;
            }
        } while (!state.compareAndSet(s, s | CLOSED));
        if (s == 0) {
            free();
        }
        return true;
    }

    boolean isClosed() {
        long s = state.get();
        return s < 0 || (s & CLOSED) != 0;
    }

    /** True once the pointer was freed. */
    boolean isFreed() {
        return state.get() == FREED;
    }

    /** Calls in flight now. */
    long inFlight() {
        long s = state.get();
        return s < 0 ? 0 : s & ~CLOSED;
    }

    /** What the freer returned, 0 until freed. */
    long freeResult() {
        return freeResult;
    }

    private void free() {
        if (state.compareAndSet(CLOSED, FREED)) {
            freeResult = freer.applyAsLong(ptr);
        }
    }
}
