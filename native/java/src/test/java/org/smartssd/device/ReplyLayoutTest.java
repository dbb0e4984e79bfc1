package org.smartssd.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The reply records against the C field lists (protocol/include/ss_proto_replies.h, and the
 * SMART lists of smartssd.h) as the JNI library reports them through replyLayout0: each
 * reply's decode reads every field where the C layout puts it, into the component named
 * after it; and a record that disagrees with its list is refused, naming reply and field.
 */
class ReplyLayoutTest {
    record Reply(int which, WireDecoder<?> decoder, Class<? extends Record> type, Object host) {
        @Override
        public String toString() {
            return decoder.reply();
        }
    }

    static List<Arguments> replies() {
        return List.of(
                Arguments.of(new Reply(0, Replies.DRIVE_INFO, DriveInfo.class, "test-transport")),
                Arguments.of(new Reply(1, Replies.FSSTAT, FsStat.class, null)),
                Arguments.of(new Reply(2, Replies.COUNTERS, DriveCounters.class, null)),
                Arguments.of(new Reply(3, Replies.SMART, SmartHealth.class, List.of())),
                Arguments.of(new Reply(4, Replies.SMART_ATTR, SmartAttribute.class, null)),
                Arguments.of(new Reply(5, Replies.STAT, ObjectStat.class, null)),
                Arguments.of(new Reply(6, Replies.PROGRESS, TaskletProgress.class, null)),
                Arguments.of(new Reply(7, Replies.MODEL, ModelCounters.class, null)),
                Arguments.of(new Reply(8, Replies.SSC_INFO, CacheCounters.class, null)),
                Arguments.of(new Reply(9, Replies.CHECK, DriveCheck.class, null)),
                Arguments.of(new Reply(10, Replies.TASK_SHARE, SharedDriveEnergy.Share.class, null)),
                Arguments.of(new Reply(11, Replies.ISP_QUEUE, IspQueue.class, null)),
                Arguments.of(new Reply(12, Replies.GEOMETRY, ChunkGeometry.class, null)),
                Arguments.of(new Reply(13, Replies.CHUNK, ChunkInfo.class, null)));
    }

    /** A valid code of each enum a reply decodes into, and the constant it names. */
    static final Map<Class<?>, Object[]> ENUM_CODES = Map.of(
            ObjectType.class, new Object[] {2L, ObjectType.DIRECTORY},
            TaskletState.class, new Object[] {4L, TaskletState.FAILED},
            SmartHealth.Overall.class, new Object[] {3L, SmartHealth.Overall.BAD_ATTRIBUTE_NOW},
            SmartAttribute.PrettyUnit.class, new Object[] {4L, SmartAttribute.PrettyUnit.MKELVIN});

    /** The C layout: one WireField per line; size[0] gets the struct's size. */
    static List<WireField> cLayout(int which, int[] size) {
        String text = WireDecoder.layoutText(which);
        assertThat(text).as("replyLayout0(%d)", which).isNotNull();
        List<WireField> fields = new ArrayList<>();
        for (String line : text.split("\n")) {
            String[] w = line.split(" ");
            if (w.length == 2) {
                if (w[0].equals("size")) {
                    size[0] = Integer.parseInt(w[1]);
                }
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
    void sizeIsTheCStructs(Reply r) {
        int[] size = {-1};
        cLayout(r.which(), size);
        assertThat(r.decoder().size()).isEqualTo(size[0]);
    }

    /**
     * Distinct values (top bits set, so a sign or a width error shows) at the C offsets come
     * back in the components named after their fields; every component but the host's has
     * a field, and every field but the wire-only ones a component.
     */
    @ParameterizedTest
    @MethodSource("replies")
    void decodeReadsEachFieldWhereCPutsIt(Reply r) throws Exception {
        int[] size = {-1};
        List<WireField> c = cLayout(r.which(), size);
        // big-endian and 5 bytes in: the decode reads little-endian from the offset given
        int at = 5;
        ByteBuffer b = ByteBuffer.allocate(at + size[0] + 16).order(ByteOrder.BIG_ENDIAN);
        ByteBuffer le = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        Map<String, WireField> byComponent = new HashMap<>();
        Map<String, Object> written = new HashMap<>();
        int i = 0;
        for (WireField f : c) {
            i++;
            int o = at + f.offset();
            switch (f.kind()) {
                case "u8" -> {
                    le.put(o, (byte) (0x80 + i));
                    written.put(f.name(), 0x80L + i);
                }
                case "u16" -> {
                    le.putShort(o, (short) (0x8000 + i));
                    written.put(f.name(), 0x8000L + i);
                }
                case "u32" -> {
                    long v = 0x80000000L + i;
                    le.putInt(o, (int) v);
                    written.put(f.name(), v);
                }
                case "i32" -> {
                    le.putInt(o, -1000 - i);
                    written.put(f.name(), -1000L - i);
                }
                case "u64" -> {
                    long v = (0x0102030405060708L * i) | Long.MIN_VALUE;
                    le.putLong(o, v);
                    written.put(f.name(), v);
                }
                case "str" -> {
                    // zero-padded text with trailing blanks, which the decode drops
                    String v = ("s" + i + f.name()).substring(0, Math.min(f.bytes() - 2,
                            ("s" + i + f.name()).length()));
                    le.put(o, (v + "  ").getBytes(StandardCharsets.US_ASCII));
                    written.put(f.name(), v);
                }
                case "cstr" -> {
                    String v = "c" + i;
                    le.put(o, (v + "\0junk").getBytes(StandardCharsets.US_ASCII));
                    written.put(f.name(), v);
                }
                case "name" -> {
                    String v = "n" + i + "-é";
                    byte[] raw = v.getBytes(StandardCharsets.UTF_8);
                    le.put(o, raw);
                    le.put(o + raw.length, (byte) 'X'); // past name_len: not read
                    WireField len = c.stream().filter(x -> x.kind().equals("len16"))
                            .findFirst().orElseThrow();
                    le.putShort(at + len.offset(), (short) raw.length);
                    written.put(f.name(), v);
                }
                case "len16" -> { }
                case "rsv16" -> le.putShort(o, (short) -1);
                case "rsv32" -> le.putInt(o, -1);
                default -> throw new AssertionError("unknown kind " + f.kind());
            }
            if (!f.kind().startsWith("rsv") && !f.kind().equals("len16")) {
                byComponent.put(camel(f.name()), f);
            }
        }
        // enum fields hold a valid code of their enum
        Map<String, Object> expected = new HashMap<>(written);
        fixEnums(r.type(), byComponent, le, at, expected);
        Record rec = r.decoder().decode(b, at, r.host());
        Map<String, WireField> unread = new HashMap<>(byComponent);
        assertThat(checkComponents(rec, r, byComponent, expected, unread)).isPositive();
        assertThat(unread).as("fields without a component").isEmpty();
    }

    private static void fixEnums(Class<?> type, Map<String, WireField> byComponent,
                                 ByteBuffer le, int at, Map<String, Object> expected) {
        for (RecordComponent rc : type.getRecordComponents()) {
            if (rc.getType().isRecord()) {
                fixEnums(rc.getType(), byComponent, le, at, expected);
            } else if (rc.getType().isEnum()) {
                WireField f = byComponent.get(rc.getName());
                Object[] code = ENUM_CODES.get(rc.getType());
                le.putInt(at + f.offset(), (int) (long) (Long) code[0]);
                expected.put(f.name(), code[1]);
            }
        }
    }

    /** Checks each component of rec (and of the records it nests) against its C field. */
    private static int checkComponents(Record rec, Reply r, Map<String, WireField> byComponent,
                                       Map<String, Object> expected,
                                       Map<String, WireField> unread)
            throws ReflectiveOperationException {
        int seen = 0;
        for (RecordComponent rc : rec.getClass().getRecordComponents()) {
            Object v = rc.getAccessor().invoke(rec);
            if (rc.getType().isRecord()) {
                seen += checkComponents((Record) v, r, byComponent, expected, unread);
                continue;
            }
            WireField f = byComponent.get(rc.getName());
            if (f == null) {
                assertThat(v).as("%s.%s: the host's", rec.getClass().getSimpleName(),
                        rc.getName()).isEqualTo(r.host());
                continue;
            }
            unread.remove(rc.getName());
            Object want = expected.get(f.name());
            Object actual = v;
            if (v instanceof Integer n) {
                // an int holds a u32 as its 32 bits, a u8 or u16 zero-extended
                actual = f.kind().equals("i32") ? (long) n : Integer.toUnsignedLong(n);
            } else if (v instanceof Boolean flag) {
                want = (Long) want != 0;
                actual = flag;
            }
            assertThat(actual).as("%s.%s from %s", rec.getClass().getSimpleName(), rc.getName(), f)
                    .isEqualTo(want);
            seen++;
        }
        return seen;
    }

    /** The SMART summary and two attributes, each where the library puts them. */
    @Test
    void smartDecodeReadsEachFieldWhereCPutsIt() {
        int[] size = {-1};
        ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.BIG_ENDIAN);
        ByteBuffer le = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        Map<String, WireField> sum = byName(cLayout(3, size));
        String text = WireDecoder.layoutText(3);
        int first = Integer.parseInt(text.lines().filter(l -> l.startsWith("attrs "))
                .findFirst().orElseThrow().substring(6));
        le.putInt(sum.get("overall").offset(), 2);
        le.putInt(sum.get("status_good").offset(), 1);
        le.putLong(sum.get("power_on_ms").offset(), 0x1122334455667788L);
        le.putLong(sum.get("bad_sectors").offset(), 0x0102030405060708L);
        le.putInt(sum.get("nattrs").offset(), 9);
        Map<String, WireField> at = byName(cLayout(4, size));
        int stride = size[0];
        for (int i = 0; i < 2; i++) {
            int base = first + i * stride;
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
        assertThat(h.nattrs()).isEqualTo(9);
        assertThat(h.attributes()).hasSize(2);
        for (int i = 0; i < 2; i++) {
            SmartAttribute a = h.attributes().get(i);
            assertThat(a).isEqualTo(new SmartAttribute(200 + i, 150 + i, 140 + i, 130 + i,
                    i == 1, i == 0, i == 1, i == 0, 0x8001 + i,
                    SmartAttribute.PrettyUnit.values()[2 + i], 0x0000A1B2C3D4E5F6L + i,
                    0x7000000000000001L + i, "attr-" + i, "unit-" + i, "ata-" + i));
        }
    }

    static Map<String, WireField> byName(List<WireField> fields) {
        Map<String, WireField> m = new HashMap<>();
        for (WireField f : fields) {
            m.put(f.name(), f);
        }
        return m;
    }

    // ---- records that disagree with SS_REPLY_FSSTAT (capacity_bytes u64, free_bytes u64,
    // objects u32, max_objects u32, page_size u32, reserved rsv32)

    record MissingLast(long capacityBytes, long freeBytes, long objects, long maxObjects) {
    }

    record ExtraComponent(long capacityBytes, long freeBytes, long objects, long maxObjects,
                          int pageSize, long inodes) {
    }

    record NarrowType(long capacityBytes, int freeBytes, long objects, long maxObjects,
                      int pageSize) {
    }

    record OutOfOrder(long freeBytes, long capacityBytes, long objects, long maxObjects,
                      int pageSize) {
    }

    enum NoCode { A }

    record EnumWithoutOf(long capacityBytes, long freeBytes, NoCode objects, long maxObjects,
                         int pageSize) {
    }

    record HostNotAComponent(long capacityBytes, long freeBytes, long objects, long maxObjects,
                             int pageSize) {
    }

    @Test
    void aMissingComponentNamesTheReplyAndTheField() {
        assertThatThrownBy(() -> WireDecoder.of(1, "SS_REPLY_FSSTAT", MissingLast.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("SS_REPLY_FSSTAT: field page_size (u32, 4 bytes at 24) of the C list"
                        + " has no component in MissingLast (expected one named pageSize after"
                        + " the others)");
    }

    @Test
    void anExtraComponentNamesTheReplyAndTheComponent() {
        assertThatThrownBy(() -> WireDecoder.of(1, "SS_REPLY_FSSTAT", ExtraComponent.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("SS_REPLY_FSSTAT: ExtraComponent component inodes (long) has no"
                        + " field in the C list: its fields end before it");
    }

    @Test
    void aTypeTooNarrowForTheFieldIsRefused() {
        assertThatThrownBy(() -> WireDecoder.of(1, "SS_REPLY_FSSTAT", NarrowType.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("SS_REPLY_FSSTAT: NarrowType component freeBytes (int) cannot hold"
                        + " field free_bytes (u64, 8 bytes at 8) (u64 maps onto long)");
    }

    @Test
    void componentsOutOfTheCOrderAreRefused() {
        assertThatThrownBy(() -> WireDecoder.of(1, "SS_REPLY_FSSTAT", OutOfOrder.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("SS_REPLY_FSSTAT: OutOfOrder component freeBytes (long) where the C"
                        + " list has field capacity_bytes (u64, 8 bytes at 0), named"
                        + " capacityBytes in a record");
    }

    @Test
    void anEnumNeedsItsCodeMapping() {
        assertThatThrownBy(() -> WireDecoder.of(1, "SS_REPLY_FSSTAT", EnumWithoutOf.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("SS_REPLY_FSSTAT: EnumWithoutOf component objects (NoCode) cannot"
                        + " hold field objects (u32, 4 bytes at 16): the enum NoCode has no"
                        + " static of(int) to map the code");
    }

    @Test
    void aHostComponentMustBeAComponent() {
        assertThatThrownBy(() -> WireDecoder.of(1, "SS_REPLY_FSSTAT", HostNotAComponent.class,
                "transport"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("SS_REPLY_FSSTAT: HostNotAComponent has no host component transport");
    }

    /** Where the records' decoders live: a wrong record fails the holder's class init. */
    static final class WrongHolder {
        static final WireDecoder<NarrowType> FSSTAT =
                WireDecoder.of(1, "SS_REPLY_FSSTAT", NarrowType.class);
    }

    @Test
    void aWrongRecordFailsItsHoldersClassInit() {
        assertThatThrownBy(() -> WrongHolder.FSSTAT.size())
                .isInstanceOf(ExceptionInInitializerError.class)
                .cause().hasMessageContaining("SS_REPLY_FSSTAT: NarrowType component freeBytes");
    }

    @Test
    void anUnknownReplyIsRefused() {
        assertThatThrownBy(() -> WireDecoder.of(99, "SS_REPLY_NONE", FsStat.class))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no layout for reply 99");
    }
}
