package org.smartssd.device;

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

}
