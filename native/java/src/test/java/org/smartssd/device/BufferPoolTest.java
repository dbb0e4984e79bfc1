package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.junit.jupiter.api.Test;

class BufferPoolTest {
    @Test
    void buffersAreDirectAlignedNativeOrderAndReused() {
        BufferPool p = new BufferPool(4096, 2);
        ByteBuffer a = p.take();
        assertThat(a.isDirect()).isTrue();
        assertThat(a.order()).isEqualTo(ByteOrder.nativeOrder());
        assertThat(a.capacity()).isGreaterThanOrEqualTo(4096);
        assertThat(a.alignmentOffset(0, 8)).isZero();
        a.putLong(0, 42).position(100);
        p.give(a);
        ByteBuffer b = p.take();
        assertThat(b).isSameAs(a);
        assertThat(b.position()).isZero();
    }

    @Test
    void keepsAtMostItsCapacity() {
        BufferPool p = new BufferPool(64, 2);
        ByteBuffer[] bs = {p.take(), p.take(), p.take()};
        for (ByteBuffer b : bs) {
            p.give(b);
        }
        assertThat(p.idle()).isEqualTo(2);
    }
}
