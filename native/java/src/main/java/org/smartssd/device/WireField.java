package org.smartssd.device;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One field of a fixed-size reply in its wire layout (little-endian, packed), one line of
 * what the JNI library reports from the C field lists ({@code protocol/include/ss_proto_replies.h},
 * and the SMART lists of {@code smartssd/smartssd.h}).
 *
 * @param name   the C field name
 * @param kind   the list's kind: {@code u8}, {@code u16}, {@code u32}, {@code u64}, {@code i32},
 *               {@code str}, {@code cstr}, {@code name}, {@code len16}, {@code rsv16} or
 *               {@code rsv32}
 * @param offset byte offset in the reply
 * @param bytes  bytes on the wire
 */
record WireField(String name, String kind, int offset, int bytes) {
    /** Reserved words and the name's length: on the wire, never a record component. */
    boolean wireOnly() {
        return kind.equals("rsv16") || kind.equals("rsv32") || kind.equals("len16");
    }

    /** The record component's name for this field: the C name in camelCase. */
    String componentName() {
        StringBuilder sb = new StringBuilder(name.length());
        boolean up = false;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '_') {
                up = true;
            } else {
                sb.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return name + " (" + kind + ", " + bytes + " bytes at " + offset + ")";
    }

    // ---- the hand-written decodes' helpers, until they are gone
    static WireField u8(String name, int offset) {
        return new WireField(name, "u8", offset, 1);
    }

    static WireField u16(String name, int offset) {
        return new WireField(name, "u16", offset, 2);
    }

    static WireField u32(String name, int offset) {
        return new WireField(name, "u32", offset, 4);
    }

    static WireField u64(String name, int offset) {
        return new WireField(name, "u64", offset, 8);
    }

    static WireField str(String name, int offset, int bytes) {
        return new WireField(name, "str", offset, bytes);
    }

    static WireField cstr(String name, int offset, int bytes) {
        return new WireField(name, "cstr", offset, bytes);
    }

    static WireField rsv32(String name, int offset) {
        return new WireField(name, "rsv32", offset, 4);
    }

    /** The wire bytes at b's position 0 read little-endian, whatever b's own order. */
    static ByteBuffer littleEndian(ByteBuffer b) {
        return b.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN);
    }

    static int u8(ByteBuffer le, int offset) {
        return Byte.toUnsignedInt(le.get(offset));
    }

    static long u32(ByteBuffer le, int offset) {
        return Integer.toUnsignedLong(le.getInt(offset));
    }

    /** A zero-padded text field: up to its first NUL, trailing blanks removed. */
    static String str(ByteBuffer le, int offset, int bytes) {
        String s = cstr(le, offset, bytes);
        int n = s.length();
        while (n > 0 && s.charAt(n - 1) == ' ') {
            n--;
        }
        return s.substring(0, n);
    }

    /** A NUL-terminated text field, as UTF-8. */
    static String cstr(ByteBuffer le, int offset, int bytes) {
        byte[] raw = new byte[bytes];
        le.get(offset, raw);
        int n = 0;
        while (n < bytes && raw[n] != 0) {
            n++;
        }
        return new String(raw, 0, n, StandardCharsets.UTF_8);
    }

    /** The reply's size: the end of its last field. */
    static int size(List<WireField> fields) {
        WireField last = fields.get(fields.size() - 1);
        return last.offset() + last.bytes();
    }
}
