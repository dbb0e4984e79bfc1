package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generic decode against the hand-written one it replaces, on byte patterns that differ
 * at every offset (a field read at a wrong offset shows), before the hand-written ones go.
 */
class WireDecoderEquivalenceTest {
    record Case(String name, int bytes, Function<ByteBuffer, Object> old,
                Function<ByteBuffer, Object> generic, List<int[]> codes) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final List<IntUnaryOperator> PATTERNS = List.of(i -> i * 13 + 5, i -> i * 29 + 200,
            i -> 0x20 + i % 95);

    static List<Arguments> cases() {
        return List.of(
                Arguments.of(new Case("DriveInfo", 104, b -> DriveInfo.decode("t", b),
                        b -> Replies.DRIVE_INFO.decode(b, "t"), List.of())),
                Arguments.of(new Case("FsStat", 32, FsStat::decode, Replies.FSSTAT::decode,
                        List.of())),
                Arguments.of(new Case("DriveCounters", 288, DriveCounters::decode,
                        Replies.COUNTERS::decode, List.of())),
                Arguments.of(new Case("SmartHealth", 64 + 2 * 110, b -> SmartHealth.decode(b, 2),
                        b -> {
                            List<SmartAttribute> attrs = List.of(
                                    Replies.SMART_ATTR.decode(b, Replies.SMART.mark("attrs")),
                                    Replies.SMART_ATTR.decode(b, Replies.SMART.mark("attrs")
                                            + Replies.SMART_ATTR.size()));
                            return Replies.SMART.decode(b, attrs);
                        },
                        // overall (0..5), and each attribute's pretty_unit
                        List.of(new int[] {0, 3}, new int[] {64 + 10, 2},
                                new int[] {64 + 110 + 10, 7}))),
                Arguments.of(new Case("ObjectStat", 328, ObjectStat::decode, Replies.STAT::decode,
                        List.<int[]>of(new int[] {16, 2}))),
                Arguments.of(new Case("TaskletProgress", 72, TaskletProgress::decode,
                        Replies.PROGRESS::decode, List.<int[]>of(new int[] {0, 4}))),
                Arguments.of(new Case("ModelCounters", 280, ModelCounters::decode,
                        Replies.MODEL::decode, List.of())),
                Arguments.of(new Case("CacheCounters", 168, CacheCounters::decode,
                        Replies.SSC_INFO::decode, List.of())),
                Arguments.of(new Case("DriveCheck", 72, DriveCheck::decode, Replies.CHECK::decode,
                        List.of())),
                Arguments.of(new Case("Share", 176, SharedDriveEnergy.Share::decode,
                        Replies.TASK_SHARE::decode, List.of())),
                Arguments.of(new Case("IspQueue", 32, IspQueue::decode, Replies.ISP_QUEUE::decode,
                        List.of())),
                Arguments.of(new Case("ChunkGeometry", 48, ChunkGeometry::decode,
                        Replies.GEOMETRY::decode, List.of())),
                Arguments.of(new Case("ChunkInfo", 32, ChunkInfo::decode, Replies.CHUNK::decode,
                        List.of())));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void genericDecodeEqualsTheHandWrittenOne(Case c) {
        for (IntUnaryOperator p : PATTERNS) {
            // big-endian, as a heap buffer is by default: both decodes must read little-endian
            ByteBuffer b = ByteBuffer.allocate(c.bytes() + 64).order(ByteOrder.BIG_ENDIAN);
            for (int i = 0; i < b.capacity(); i++) {
                b.put(i, (byte) p.applyAsInt(i));
            }
            for (int[] code : c.codes()) {
                b.order(ByteOrder.LITTLE_ENDIAN).putInt(code[0], code[1]);
            }
            b.order(ByteOrder.BIG_ENDIAN).position(7);
            Object old = c.old().apply(b);
            Object generic = c.generic().apply(b);
            assertThat(generic).isEqualTo(old);
        }
    }
}
