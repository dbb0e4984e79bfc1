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
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Java reply records against the C field lists (protocol/include/ss_proto_replies.h,
 * and the SMART lists of smartssd.h), which the JNI library reports through replyLayout0:
 * same fields, order, offsets and sizes; record components in field order; and decode
 * reading each field where the C layout puts it.
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
                        DriveCounters::decode)),
                Arguments.of(new Reply(8, CacheCounters.FIELDS, CacheCounters.class,
                        CacheCounters::decode)),
                Arguments.of(new Reply(9, DriveCheck.FIELDS, DriveCheck.class,
                        DriveCheck::decode)),
                Arguments.of(new Reply(10, SharedDriveEnergy.Share.FIELDS,
                        SharedDriveEnergy.Share.class, SharedDriveEnergy.Share::decode)),
                Arguments.of(new Reply(11, IspQueue.FIELDS, IspQueue.class,
                        IspQueue::decode)),
                Arguments.of(new Reply(12, ChunkGeometry.FIELDS, ChunkGeometry.class,
                        ChunkGeometry::decode)),
                Arguments.of(new Reply(13, ChunkInfo.FIELDS, ChunkInfo.class,
                        ChunkInfo::decode)));
    }

    @ParameterizedTest(name = "layout {0}")
    @CsvSource({"3", "4"})
    void smartFieldsMatchTheCList(int which) {
        int[] size = {-1};
        List<WireField> fields = which == 3 ? SmartHealth.FIELDS : SmartAttribute.FIELDS;
        assertThat(fields).isEqualTo(cLayout(which, size));
        assertThat(WireField.size(fields)).isEqualTo(size[0]);
        if (which == 4) {
            assertThat(SmartAttribute.SIZE).isEqualTo(size[0]);
        } else {
            assertThat(SmartSsdDevice.replyLayout0(3)).contains("attrs " + SmartHealth.ATTRS + "\n");
        }
    }

    /** Distinct values at the C offsets of the summary and of two attributes come back in
     *  the components that carry them. */
    @org.junit.jupiter.api.Test
    void smartDecodeReadsEachFieldWhereCPutsIt() {
        int[] size = {-1};
        ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.BIG_ENDIAN);
        ByteBuffer le = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        java.util.Map<String, WireField> sum = byName(cLayout(3, size));
        le.putInt(sum.get("overall").offset(), 2);
        le.putInt(sum.get("status_good").offset(), 1);
        le.putLong(sum.get("power_on_ms").offset(), 0x1122334455667788L);
        le.putLong(sum.get("bad_sectors").offset(), 0x0102030405060708L);
        le.putInt(sum.get("nattrs").offset(), 9);
        java.util.Map<String, WireField> at = byName(cLayout(4, size));
        int stride = size[0];
        for (int i = 0; i < 2; i++) {
            int base = SmartHealth.ATTRS + i * stride;
            le.put(base + at.get("id").offset(), (byte) (200 + i));
            le.put(base + at.get("current").offset(), (byte) (150 + i));
            le.put(base + at.get("worst").offset(), (byte) (140 + i));
            le.put(base + at.get("threshold").offset(), (byte) (130 + i));
            le.put(base + at.get("threshold_valid").offset(), (byte) i);
            le.put(base + at.get("prefailure").offset(), (byte) (1 - i));
            le.put(base + at.get("good_now").offset(), (byte) i);
            le.put(base + at.get("good_now_valid").offset(), (byte) (1 - i));
            le.putShort(base + at.get("flags").offset(), (short) (0x8001 + i));
            le.putInt(base + at.get("pretty_unit").offset(), 2 + i);
            le.putLong(base + at.get("raw").offset(), 0x0000A1B2C3D4E5F6L + i);
            le.putLong(base + at.get("pretty_value").offset(), 0x7000000000000001L + i);
            le.put(base + at.get("name").offset(),
                    ("attr-" + i).getBytes(StandardCharsets.US_ASCII));
            le.put(base + at.get("unit").offset(),
                    ("unit-" + i).getBytes(StandardCharsets.US_ASCII));
            le.put(base + at.get("atasmart_name").offset(),
                    ("ata-" + i).getBytes(StandardCharsets.US_ASCII));
        }
        SmartHealth h = SmartHealth.decode(b, 2);
        assertThat(h.overall()).isEqualTo(SmartHealth.Overall.values()[2]);
        assertThat(h.statusGood()).isTrue();
        assertThat(h.powerOnMs()).isEqualTo(0x1122334455667788L);
        assertThat(h.badSectors()).isEqualTo(0x0102030405060708L);
        assertThat(h.attributes()).hasSize(2);
        for (int i = 0; i < 2; i++) {
            SmartAttribute a = h.attributes().get(i);
            assertThat(a).isEqualTo(new SmartAttribute(200 + i, 150 + i, 140 + i, 130 + i,
                    i == 1, i == 0, i == 1, i == 0, 0x8001 + i,
                    SmartAttribute.PrettyUnit.values()[2 + i], 0x0000A1B2C3D4E5F6L + i,
                    0x7000000000000001L + i, "attr-" + i, "unit-" + i, "ata-" + i));
        }
    }

    static java.util.Map<String, WireField> byName(List<WireField> fields) {
        java.util.Map<String, WireField> m = new java.util.HashMap<>();
        for (WireField f : fields) {
            m.put(f.name(), f);
        }
        return m;
    }

    /** The C layout: one WireField per line, then the struct's size. */
    static List<WireField> cLayout(int which, int[] size) {
        String text = SmartSsdDevice.replyLayout0(which);
        assertThat(text).as("replyLayout0(%d)", which).isNotNull();
        List<WireField> fields = new ArrayList<>();
        for (String line : text.split("\n")) {
            String[] w = line.split(" ");
            if (w.length == 2 && w[0].equals("size")) {
                size[0] = Integer.parseInt(w[1]);
            } else if (w.length == 2 && w[0].equals("attrs")) {
                continue;
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

    /** Replies whose records keep only some fields or name them differently (the object
     *  stat, the tasklet progress, the model counters): `alias` maps a component to its C
     *  field where the snake-case name differs; `codes` gives valid values for fields that
     *  decode into enums. */
    record Mapped(int which, List<WireField> fields, Class<? extends Record> type,
                  Function<ByteBuffer, Record> decode, java.util.Map<String, String> alias,
                  java.util.Map<String, Long> codes) {
        @Override
        public String toString() {
            return type.getSimpleName();
        }
    }

    static List<Arguments> mapped() {
        return List.of(
                Arguments.of(new Mapped(5, ObjectStat.FIELDS, ObjectStat.class, ObjectStat::decode,
                        java.util.Map.of("children", "nchildren"), java.util.Map.of("type", 2L))),
                Arguments.of(new Mapped(6, TaskletProgress.FIELDS, TaskletProgress.class,
                        TaskletProgress::decode, java.util.Map.of(),
                        java.util.Map.of("state", 4L))),
                Arguments.of(new Mapped(7, ModelCounters.FIELDS, ModelCounters.class,
                        ModelCounters::decode, java.util.Map.of(), java.util.Map.of())));
    }

    @ParameterizedTest
    @MethodSource("mapped")
    void mappedFieldsMatchTheCList(Mapped r) {
        int[] size = {-1};
        assertThat(r.fields()).isEqualTo(cLayout(r.which(), size));
        assertThat(WireField.size(r.fields())).isEqualTo(size[0]);
    }

    static String snake(String camel) {
        return camel.replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT);
    }

    /** Distinct values at the C offsets come back in the components that carry them, and
     *  every component is a field of the C list. */
    @ParameterizedTest
    @MethodSource("mapped")
    void mappedDecodeReadsEachFieldWhereCPutsIt(Mapped r) throws Exception {
        int[] size = {-1};
        List<WireField> c = cLayout(r.which(), size);
        ByteBuffer b = ByteBuffer.allocate(size[0] + 16).order(ByteOrder.BIG_ENDIAN);
        ByteBuffer le = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        java.util.Map<String, Object> written = new java.util.HashMap<>();
        int i = 0;
        for (WireField f : c) {
            i++;
            Long code = r.codes().get(f.name());
            switch (f.kind()) {
                case "u32" -> {
                    long v = code != null ? code : 0x80000000L + i;
                    le.putInt(f.offset(), (int) v);
                    written.put(f.name(), v);
                }
                case "i32" -> {
                    long v = -1000L - i;
                    le.putInt(f.offset(), (int) v);
                    written.put(f.name(), v);
                }
                case "u64" -> {
                    long v = 0x0102030405060708L * i;
                    le.putLong(f.offset(), v);
                    written.put(f.name(), v);
                }
                case "name" -> {
                    String v = "n" + i + "-é";
                    byte[] raw = v.getBytes(StandardCharsets.UTF_8);
                    le.put(f.offset(), raw);
                    le.put(f.offset() + raw.length, (byte) 'X'); // past name_len: not read
                    WireField len = c.stream().filter(x -> x.kind().equals("len16")).findFirst()
                            .orElseThrow();
                    le.putShort(len.offset(), (short) raw.length);
                    written.put(f.name(), v);
                }
                case "len16" -> { }
                case "rsv16" -> le.putShort(f.offset(), (short) -1);
                default -> throw new AssertionError("unknown kind " + f.kind());
            }
        }
        Record rec = r.decode().apply(b);
        assertThat(checkComponents(rec, r, written)).isPositive();
    }

    /** Checks each component of rec (and of the records it nests) against its C field. */
    private static int checkComponents(Record rec, Mapped r, java.util.Map<String, Object> written)
            throws ReflectiveOperationException {
        int seen = 0;
        for (RecordComponent rc : rec.getClass().getRecordComponents()) {
            Object v = rc.getAccessor().invoke(rec);
            if (v instanceof Record nested) {
                seen += checkComponents(nested, r, written);
                continue;
            }
            String field = r.alias().getOrDefault(rc.getName(), snake(rc.getName()));
            assertThat(written).as("component %s has a C field", rc.getName())
                    .containsKey(field);
            Object actual = v instanceof Integer n ? (Object) (long) n
                    : v instanceof ObjectType t ? (Object) (long) t.code()
                    : v instanceof TaskletState t ? (Object) (long) t.code() : v;
            assertThat(actual).as("%s.%s", rec.getClass().getSimpleName(), rc.getName())
                    .isEqualTo(written.get(field));
            seen++;
        }
        return seen;
    }
}
