package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Java reply records against the C field lists (protocol/include/ss_proto_replies.h),
 * which the JNI library reports through replyLayout0: same fields, order, offsets and
 * sizes; record components in field order; and decode reading each field where the C
 * layout puts it.
 */
class ReplyLayoutTest {
    record Reply(int which, List<WireField> fields, Class<? extends Record> type,
                 Function<ByteBuffer, Record> decode) {
        @Override
        public String toString() {
            return type.getSimpleName();
        }
    }

    static List<Arguments> replies() {
        return List.of(
                Arguments.of(new Reply(0, DriveInfo.FIELDS, DriveInfo.class,
                        b -> DriveInfo.decode("test", b))),
                Arguments.of(new Reply(1, FsStat.FIELDS, FsStat.class, FsStat::decode)),
                Arguments.of(new Reply(2, DriveCounters.FIELDS, DriveCounters.class,
                        DriveCounters::decode)));
    }

    /** The C layout: one WireField per line, then the struct's size. */
    static List<WireField> cLayout(int which, int[] size) {
        String text = SmartSsdDevice.replyLayout0(which);
        assertThat(text).as("replyLayout0(%d)", which).isNotNull();
        List<WireField> fields = new ArrayList<>();
        for (String line : text.split("\n")) {
            String[] w = line.split(" ");
            if (w[0].equals("size")) {
                size[0] = Integer.parseInt(w[1]);
            } else {
                fields.add(new WireField(w[0], w[1], Integer.parseInt(w[2]),
                        Integer.parseInt(w[3])));
            }
        }
        return fields;
    }

    static String camel(String snake) {
        StringBuilder sb = new StringBuilder();
        boolean up = false;
        for (char c : snake.toCharArray()) {
            if (c == '_') {
                up = true;
            } else {
                sb.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return sb.toString();
    }

    @ParameterizedTest
    @MethodSource("replies")
    void fieldsMatchTheCList(Reply r) {
        int[] size = {-1};
        assertThat(r.fields()).isEqualTo(cLayout(r.which(), size));
        assertThat(WireField.size(r.fields())).isEqualTo(size[0]);
    }

    @ParameterizedTest
    @MethodSource("replies")
    void componentsFollowTheFieldOrder(Reply r) {
        List<String> components = Arrays.stream(r.type().getRecordComponents())
                .map(RecordComponent::getName).filter(n -> !n.equals("transport")).toList();
        List<String> fields = r.fields().stream().filter(f -> !f.kind().equals("rsv32"))
                .map(f -> camel(f.name())).toList();
        assertThat(components).isEqualTo(fields);
    }

    /** Distinct values at the C offsets come back in the components of the same name. */
    @ParameterizedTest
    @MethodSource("replies")
    void decodeReadsEachFieldWhereCPutsIt(Reply r) throws Exception {
        int[] size = {-1};
        List<WireField> c = cLayout(r.which(), size);
        ByteBuffer b = ByteBuffer.allocate(size[0] + 16).order(ByteOrder.BIG_ENDIAN);
        ByteBuffer le = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        List<Object> expected = new ArrayList<>();
        int i = 0;
        for (WireField f : c) {
            i++;
            switch (f.kind()) {
                case "u32" -> {
                    long v = 0x80000000L + i;   // the top bit: read as unsigned
                    le.putInt(f.offset(), (int) v);
                    expected.add(v);
                }
                case "u64" -> {
                    long v = 0x0102030405060708L * i;
                    le.putLong(f.offset(), v);
                    expected.add(v);
                }
                case "str" -> {
                    String v = ("f" + i + "-" + f.name()).substring(0, Math.min(f.bytes(),
                            ("f" + i + "-" + f.name()).length()));
                    le.put(f.offset(), v.getBytes(StandardCharsets.US_ASCII));
                    expected.add(v);
                }
                case "rsv32" -> le.putInt(f.offset(), -1);
                default -> throw new AssertionError("unknown kind " + f.kind());
            }
        }
        Record rec = r.decode().apply(b);
        List<Object> actual = new ArrayList<>();
        for (RecordComponent rc : r.type().getRecordComponents()) {
            if (rc.getName().equals("transport")) {
                continue;
            }
            Object v = rc.getAccessor().invoke(rec);
            // int components hold a u32 as its two's complement
            actual.add(v instanceof Integer n ? Integer.toUnsignedLong(n) : v);
        }
        assertThat(actual).isEqualTo(expected);
    }
}
