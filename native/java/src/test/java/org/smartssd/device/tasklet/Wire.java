package org.smartssd.device.tasklet;

import java.io.ByteArrayOutputStream;
import java.util.HexFormat;

/** Builds expected byte strings for the tests, independently of the code under test. */
final class Wire {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    Wire u8(int v) {
        out.write(v);
        return this;
    }

    Wire u16(int v) {
        return u8(v & 0xff).u8(v >>> 8);
    }

    Wire u32(long v) {
        for (int i = 0; i < 4; i++) {
            out.write((int) (v >>> (8 * i)));
        }
        return this;
    }

    Wire u64(long v) {
        for (int i = 0; i < 8; i++) {
            out.write((int) (v >>> (8 * i)));
        }
        return this;
    }

    Wire bytes(byte[] b) {
        out.write(b, 0, b.length);
        return this;
    }

    /** The 32-byte trailer: "SSTR", id, records in, items out, aux. */
    Wire trailer(int id, long in, long items, long aux) {
        return bytes(hex("53535452")).u32(id).u64(in).u64(items).u64(aux);
    }

    byte[] done() {
        return out.toByteArray();
    }
}
