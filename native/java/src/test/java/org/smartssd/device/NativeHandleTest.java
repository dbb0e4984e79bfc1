package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class NativeHandleTest {
    private final AtomicInteger frees = new AtomicInteger();
    private final AtomicLong freedPtr = new AtomicLong();

    private NativeHandle handle() {
        return new NativeHandle(0x1234, p -> {
            frees.incrementAndGet();
            freedPtr.set(p);
            return -107;
        }, "emu:/x");
    }

    @Test
    void closeWithNothingInFlightFreesAtOnce() {
        NativeHandle h = handle();
        assertThat(h.close()).isTrue();
        assertThat(frees).hasValue(1);
        assertThat(freedPtr).hasValue(0x1234);
        assertThat(h.isFreed()).isTrue();
        assertThat(h.freeResult()).isEqualTo(-107);
    }

    @Test
    void closeWhileInFlightDefersTheFreeToTheLastRelease() throws Exception {
        NativeHandle h = handle();
        assertThat(h.acquire()).isEqualTo(0x1234);
        assertThat(h.acquire()).isEqualTo(0x1234);
        assertThat(h.close()).isTrue();
        assertThat(h.isClosed()).isTrue();
        assertThat(frees).hasValue(0);
        h.release();
        assertThat(frees).hasValue(0);
        assertThat(h.inFlight()).isEqualTo(1);
        h.release();
        assertThat(frees).hasValue(1);
    }

    @Test
    void acquireAfterCloseFailsAndCloseIsIdempotent() {
        NativeHandle h = handle();
        h.close();
        assertThat(h.close()).isFalse();
        assertThatThrownBy(h::acquire).isInstanceOf(TransportClosedException.class)
                .hasMessageContaining("emu:/x").hasMessageContaining("closed");
        assertThat(frees).hasValue(1);
    }

    @Test
    void concurrentUseAndCloseFreeExactlyOnceAndNeverUnderAUser() throws Exception {
        for (int round = 0; round < 50; round++) {
            AtomicInteger live = new AtomicInteger();
            AtomicInteger violations = new AtomicInteger();
            AtomicInteger freed = new AtomicInteger();
            NativeHandle h = new NativeHandle(1, p -> {
                if (live.get() != 0) {
                    violations.incrementAndGet();
                }
                freed.incrementAndGet();
                return 0;
            }, "t");
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> ts = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Thread t = new Thread(() -> {
                    try {
                        go.await();
                        for (int k = 0; k < 1000; k++) {
                            h.acquire();
                            live.incrementAndGet();
                            live.decrementAndGet();
                            h.release();
                        }
                    } catch (TransportClosedException e) {
                        // expected once closed
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                t.start();
                ts.add(t);
            }
            go.countDown();
            h.close();
            for (Thread t : ts) {
                t.join();
            }
            assertThat(freed).hasValue(1);
            assertThat(violations).hasValue(0);
        }
    }
}
