package org.smartssd.device;

import static org.smartssd.device.DeviceSession.oid;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The named attributes of a drive's objects ({@code device.attributes()}; PROTOCOL.md 4.6;
 * smartssd:// offers them as extended attributes). Durable at the next
 * {@link SmartSsdDevice#flush}. Names are 1..255 UTF-8 bytes; an object holds at most 1024
 * bytes of names and values. Each method is one command. Thread-safe, as the device is.
 */
public final class ObjectAttributes {
    // SS_DEV_ATTR_NAME_MAX and SS_DEV_ATTRS_MAX of smartssd.h
    static final int NAME_MAX = 255;
    static final int BYTES_MAX = 1024;
    // SS_DEV_ATTR_CREATE, SS_DEV_ATTR_REPLACE
    private static final int CREATE = 1;
    private static final int REPLACE = 2;

    private final DeviceSession s;

    ObjectAttributes(DeviceSession s) {
        this.s = s;
    }

    /**
     * Sets a named attribute of an object. {@code create}: fail with
     * {@link ObjectExistsException} if the name is set; {@code replace}: fail with reason
     * {@link Reason#NO_SUCH_ATTR} if it is not.
     */
    public void set(long oid, String name, byte[] value, boolean create, boolean replace)
            throws IOException {
        if (create && replace) {
            throw new IllegalArgumentException("attribute " + name + ": create and replace");
        }
        byte[] n = name(name);
        Objects.requireNonNull(value, "value");
        if (value.length > BYTES_MAX) {
            throw new IllegalArgumentException("attribute " + name + ": value of " + value.length
                    + " bytes; an object holds at most " + BYTES_MAX
                    + " bytes of attribute names and values");
        }
        int flags = create ? CREATE : replace ? REPLACE : 0;
        s.withHandle(h -> s.check(SmartSsdNative.setAttr0(h, oid, n, value, flags),
                "set attribute " + name + " of", oid(oid)));
    }

    /** The value of a named attribute; reason {@link Reason#NO_SUCH_ATTR} if it is not set. */
    public byte[] get(long oid, String name) throws IOException {
        byte[] n = name(name);
        return s.withScratch((h, out) -> {
            int len = (int) s.check(SmartSsdNative.getAttr0(h, oid, n, out),
                    "get attribute " + name + " of", oid(oid));
            byte[] v = new byte[len];
            out.get(0, v);
            return v;
        });
    }

    /** The names of an object's attributes, in the order they were last set. */
    public List<String> list(long oid) throws IOException {
        return s.withScratch((h, out) -> {
            int len = (int) s.check(SmartSsdNative.listAttrs0(h, oid, out),
                    "list attributes of", oid(oid));
            List<String> names = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < len; i++) {
                if (out.get(i) == 0) {
                    byte[] b = new byte[i - start];
                    out.get(start, b);
                    names.add(new String(b, StandardCharsets.UTF_8));
                    start = i + 1;
                }
            }
            return names;
        });
    }

    /** Removes a named attribute; reason {@link Reason#NO_SUCH_ATTR} if it is not set. */
    public void remove(long oid, String name) throws IOException {
        byte[] n = name(name);
        s.withHandle(h -> s.check(SmartSsdNative.removeAttr0(h, oid, n),
                "remove attribute " + name + " of", oid(oid)));
    }

    /** The name as the drive takes it: UTF-8, 1..255 bytes, NUL-terminated for JNI. */
    private static byte[] name(String name) {
        Objects.requireNonNull(name, "attribute name");
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        if (b.length == 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("attribute name is empty or contains NUL: "
                    + name.replace('\0', '?'));
        }
        if (b.length > NAME_MAX) {
            throw new IllegalArgumentException("attribute name of " + b.length
                    + " bytes (at most " + NAME_MAX + "): " + name);
        }
        return Arrays.copyOf(b, b.length + 1);
    }
}
